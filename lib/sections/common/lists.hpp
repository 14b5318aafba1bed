#pragma once
// Whether a kind's cached list is the whole truth, and what views say when it is not.
//
// One rule for "does the object a view names exist": true when it is cached; false when it is
// not and the kind's list is complete (or the operator itself says it is missing); "cannot tell"
// when the list is cut, forbidden or not read yet. Never false on a guess.
// One wording for why a list may be incomplete: the store's short phrase ("cut at 5000
// Workloads", "forbidden by RBAC", "not read yet"), as list answers give it in incompleteReason.
#include <cstddef>
#include <string>
#include <string_view>

#include "sections/view_context.hpp"

namespace sextant {

inline constexpr std::string_view cannot_tell = "cannot tell";

// Whether the cached list of a kind is complete (read in full, not cut, readable).
bool list_complete(const view_context& context, const kind_key& type);

// Why the cached list of a kind may lack objects, or empty when it is whole. A view that reads
// at most `cap` objects of the kind (0: no cap) says it is cut past them ("cut at 500 Resource
// Slices", with `noun` as the plural).
std::string incomplete_reason(const view_context& context, const kind_key& type, std::size_t cap = 0,
                              std::string_view noun = {});

// "<what> may be incomplete: <reason>." for a view's notes.
std::string may_be_incomplete(std::string_view what, std::string_view reason);

// true, false or "cannot tell", by the rule above. `found`: the object is cached (and is the
// one named); `said_missing`: the operator's own status says it does not exist.
json exists_json(bool found, const view_context& context, const kind_key& type, bool said_missing = false);
// The same for an object named by kind, namespace and name.
json exists_json(const view_context& context, const kind_key& type, const std::string& namespace_,
                 const std::string& name);

}  // namespace sextant
