#include "sections/core/pod_reading.hpp"

#include "sections/common/conditions.hpp"
#include "sections/common/objects.hpp"

namespace sextant::core {

bool waiting_for_scheduler(const packed_value& pod) {
  return string_or(pod, {"status", "phase"}) == "Pending" && string_or(pod, {"spec", "nodeName"}).empty() &&
         !being_deleted(pod);
}

bool scheduling_gated(const packed_value& pod) {
  return !array_or_empty(pod, {"spec", "schedulingGates"}).empty();
}

const packed_value* not_scheduled_condition(const packed_value& pod) {
  const packed_value* scheduled = condition_of(pod, "PodScheduled");
  return condition_status(scheduled) == "False" ? scheduled : nullptr;
}

void add_waiting_reason(const cached_object& pod, details_view& view, json reason) {
  json& waiting = view.blocks["waiting"];
  if (!waiting.is_object()) {
    const packed_value* condition = not_scheduled_condition(pod.body());
    waiting = {{"message", or_null(condition_message(condition))},
               {"since", time_or_null(since_of(condition, pod.body()))},
               {"reasons", json::array()}};
  }
  if (!waiting["reasons"].is_array()) {
    waiting["reasons"] = json::array();
  }
  waiting["reasons"].push_back(std::move(reason));
}

}  // namespace sextant::core
