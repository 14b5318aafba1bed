#pragma once
// The view cache's key of a request's answer: an unambiguous encoding of the canonical request
// (its decoded path segments, its parameters sorted by name, the encoding it is sent in). Each
// field is length-prefixed (util/key_encoding.hpp), so that no decoded text can pass for the
// separators of another request: `?queue=nightly%26state%3DPending` and
// `?queue=nightly&state=Pending` are two answers.
//
// No caller is in it: every cached answer is the same for all callers, and each caller's cut
// (api_router) is made from it per request, never cached.
#include <string>

#include "api/http_types.hpp"

namespace sextant {

// The request without its encoding: what an answer's ETag is scoped to.
std::string answer_scope(const parsed_target& target);
// The scope and the encoding.
std::string answer_key(const std::string& scope, bool gzip);

}  // namespace sextant
