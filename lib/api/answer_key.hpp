#pragma once
// The view cache's key of a request's answer: an unambiguous encoding of the canonical request
// (its decoded path segments, its parameters sorted by name, the encoding it is sent in). Each
// field is length-prefixed (util/key_encoding.hpp), so that no decoded text can pass for the
// separators of another request: `?queue=nightly%26state%3DPending` and
// `?queue=nightly&state=Pending` are two answers.
//
// No caller is in it: a cached answer is the same for all callers. A caller's cut of a list is
// kept under the list's scope and the cut's identity (auth/caller_cuts.hpp cut_identity): what
// the caller may see, never who the caller is, so callers with the same rights share it. Other
// cuts (a joined entry hidden in details) are made per request from the shared answer.
#include <string>

#include "api/http_types.hpp"

namespace sextant {

// The request without its encoding: what an answer's ETag is scoped to.
std::string answer_scope(const parsed_target& target);
// The scope and the encoding.
std::string answer_key(const std::string& scope, bool gzip);

}  // namespace sextant
