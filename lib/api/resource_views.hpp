#pragma once
// Builds the SUMMARY and details answers of api.md from a section's interpreters.
//
// An interpreter that throws on an object does not take the answer down: the object shows with
// state "Unknown" and a note (a computed list shows empty and incomplete), and the failure is
// logged and counted (daemon_state::interpreter_failed).
#include "runtime/daemon_state.hpp"
#include "util/json.hpp"

namespace sextant {

json object_summary(daemon_state& state, const section& owner, const resource_def& resource,
                    const cached_object& object, const view_context& context);

json object_details(daemon_state& state, const section& owner, const resource_def& resource,
                    const cached_object& object, const view_context& context);

// {"items": [...], "incomplete": bool, "incompleteReason": string|null}
json resource_list(daemon_state& state, const section& owner, const resource_def& resource,
                   const std::optional<std::string>& namespace_, const view_context& context);

}  // namespace sextant
