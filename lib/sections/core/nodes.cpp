#include "sections/core/core_section.hpp"

#include "sections/common/conditions.hpp"

namespace sextant::core {

object_state node_state(const cached_object& node, const view_context&) {
  const packed_value* ready = find_condition(array_or_empty(node.body(), {"status", "conditions"}), "Ready");
  object_state state;
  if (ready == nullptr) {
    state.label = "Unknown";
    state.message = "The node reports no Ready condition.";
  } else {
    std::string status = string_or(*ready, {"status"});
    state.label = status == "True" ? "Ready" : status == "False" ? "Not ready" : "Unknown";
    state.reason = string_or(*ready, {"reason"});
    state.message = string_or(*ready, {"message"});
  }
  if (get_bool(node.body(), {"spec", "unschedulable"}).value_or(false)) {
    state.message = state.message.empty() ? "Cordoned: new pods are not scheduled here."
                                          : state.message + " Cordoned: new pods are not scheduled here.";
  }
  return state;
}

void node_details(const cached_object& node, const view_context&, details_view& view) {
  view.blocks["capacity"] = object_or_empty(node.body(), {"status", "capacity"});
  view.blocks["allocatable"] = object_or_empty(node.body(), {"status", "allocatable"});
  view.blocks["conditions"] = status_conditions_json(node.body());
  view.blocks["unschedulable"] = get_bool(node.body(), {"spec", "unschedulable"}).value_or(false);
}

}  // namespace sextant::core
