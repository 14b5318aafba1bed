#include "sections/core/core_section.hpp"

#include "sections/common/conditions.hpp"
#include "sections/common/objects.hpp"

namespace sextant::core {

object_state pod_state(const cached_object& pod, const view_context&) {
  const packed_value& body = pod.body();
  object_state state;
  state.label = string_or(body, {"status", "phase"}, "Unknown");
  state.reason = string_or(body, {"status", "reason"});
  state.message = string_or(body, {"status", "message"});
  if (state.label == "Pending") {
    if (scheduling_gated(body)) {
      state.reason = "SchedulingGated";
      state.message = "Held back by scheduling gates; the scheduler does not consider it yet.";
    } else if (const packed_value* condition = not_scheduled_condition(body)) {
      // Whatever the reason (Unschedulable, SchedulerError when PreBind failed or timed out, a
      // reason of a scheduler to come), the scheduler's own words are what tells why it waits.
      state.reason = string_or(*condition, {"reason"}, "Unschedulable");
      state.message = string_or(*condition, {"message"}, "The scheduler could not place it and gave no message.");
    }
  }
  if (being_deleted(body)) {
    state.reason = "Terminating";
    if (state.message.empty()) {
      state.message = "Being deleted.";
    }
  }
  return state;
}

namespace {

json container_statuses(const packed_value& pod) {
  json out = json::array();
  for (const char* field : {"initContainerStatuses", "containerStatuses"}) {
    for (const packed_value& status : array_or_empty(pod, {"status", field})) {
      json entry = {{"name", string_or(status, {"name"})},
                    {"init", std::string_view(field) == "initContainerStatuses"},
                    {"ready", get_bool(status, {"ready"}).value_or(false)},
                    {"restarts", get_int(status, {"restartCount"}).value_or(0)}};
      const packed_value& state = object_or_empty(status, {"state"});
      if (state.contains("running")) {
        entry["state"] = "running";
      } else if (const packed_value* waiting = find(state, {"waiting"})) {
        entry["state"] = "waiting";
        entry["reason"] = string_or(*waiting, {"reason"});
        entry["message"] = string_or(*waiting, {"message"});
      } else if (const packed_value* terminated = find(state, {"terminated"})) {
        entry["state"] = "terminated";
        entry["reason"] = string_or(*terminated, {"reason"});
        entry["exitCode"] = get_int(*terminated, {"exitCode"}).value_or(0);
      } else {
        entry["state"] = "unknown";
      }
      out.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

void pod_summary(const cached_object& pod, const view_context&, json& summary) {
  summary["node"] =
      get_string(pod.body(), {"spec", "nodeName"}) ? json(string_or(pod.body(), {"spec", "nodeName"})) : json(nullptr);
}

void pod_details(const cached_object& pod, const view_context& context, details_view& view) {
  const packed_value& body = pod.body();
  view.blocks["containers"] = container_statuses(body);
  if (auto node = get_string(body, {"spec", "nodeName"})) {
    view.link(context, "node", "v1", "Node", "", *node);
  }
  link_owners(pod, context, view);
  json waiting = nullptr;
  if (string_or(body, {"status", "phase"}) == "Pending") {
    if (scheduling_gated(body)) {
      json gates = json::array();
      for (const packed_value& gate : array_or_empty(body, {"spec", "schedulingGates"})) {
        gates.push_back(string_or(gate, {"name"}));
      }
      waiting = {
          {"message", "Held back by scheduling gates: the scheduler does not consider it until they are removed."},
          {"schedulingGates", gates},
          {"reasons", json::array()}};
    } else if (const packed_value* condition = not_scheduled_condition(body)) {
      waiting = {{"message", string_or(*condition, {"message"})},
                 {"since", time_or_null(since_of(condition, body))},
                 {"reasons", json::array()}};
    }
  }
  view.blocks["waiting"] = std::move(waiting);
}

}  // namespace sextant::core
