// Workloads: state, why they wait, pod sets, evictions, and who deactivated them.
#include "sections/common/read_once.hpp"
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/pod_sets.hpp"
#include "sections/kueue/workload_reading.hpp"

namespace sextant::kueue {
namespace {

json priority_json(const packed_value& body) {
  auto value = get_int(body, {"spec", "priority"});
  auto ref = priority_class_of(body);
  return json{{"value", or_null(value)},
              {"className", ref ? json(ref->name) : json(nullptr)},
              {"classKind", ref ? json(ref->kind) : json(nullptr)}};
}

json deactivation_json(const deactivation& how) {
  std::string explanation =
      how.by_kueue
          ? std::string(how.in_progress ? "Kueue is deactivating it because " : "Kueue deactivated it because ") +
                deactivation_cause_words(how.cause) + ". Set spec.active back to true to queue it again."
          : "A person deactivated it (spec.active is false). Set it back to true to queue it again.";
  return json{{"by", how.by_kueue ? "kueue" : "person"},
              {"cause", or_null(how.cause)},
              {"reason", how.reason},
              {"message", how.message},
              {"inProgress", how.in_progress},
              {"since", time_or_null(how.since)},
              {"explanation", explanation}};
}

json admission_checks_json(const cached_object& workload, const view_context& context) {
  json out = json::array();
  for (const packed_value& check : array_or_empty(workload.body(), {"status", "admissionChecks"})) {
    std::string name = string_or(check, {"name"});
    json entry = link_to(context, admission_check_kind, "", name);
    entry["state"] = string_or(check, {"state"}, "Pending");
    entry["message"] = string_or(check, {"message"});
    entry["lastTransitionTime"] = or_null(get_string(check, {"lastTransitionTime"}));
    entry["retryCount"] = or_null(get_int(check, {"retryCount"}));
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

object_state workload_state(const cached_object& workload, const view_context& context) {
  return read_once(workload, context, read_workload)->state;
}

void workload_summary(const cached_object& workload, const view_context& context, json& summary) {
  std::string local = string_or(workload.body(), {"spec", "queueName"});
  std::string cluster = cluster_queue_of(workload, context);
  summary["localQueue"] = or_null(local);
  summary["clusterQueue"] = or_null(cluster);
  summary["priority"] = get_int(workload.body(), {"spec", "priority"})
                            ? json(*get_int(workload.body(), {"spec", "priority"}))
                            : json(nullptr);
}

void workload_details(const cached_object& workload, const view_context& context, details_view& view) {
  const packed_value& body = workload.body();
  const auto reading = read_once(workload, context, read_workload);
  note_wrong_types(body,
                   {{"spec", field_type::object},
                    {"spec.queueName", field_type::string},
                    {"spec.podSets", field_type::array},
                    {"spec.active", field_type::boolean},
                    {"spec.priority", field_type::integer},
                    {"spec.maximumExecutionTimeSeconds", field_type::integer},
                    {"status", field_type::object},
                    {"status.conditions", field_type::array},
                    {"status.admission", field_type::object},
                    {"status.admission.clusterQueue", field_type::string},
                    {"status.admissionChecks", field_type::array},
                    {"status.schedulingStats.evictions", field_type::array},
                    {"status.requeueState", field_type::object}},
                   view);

  json queues = workload_queues(workload, context);
  for (const char* rel : {"localQueue", "clusterQueue"}) {
    if (const json& link = queues[rel]; link.is_object()) {
      view.link(context, rel, link["apiVersion"].get<std::string>(), link["kind"].get<std::string>(),
                link["namespace"].is_string() ? link["namespace"].get<std::string>() : std::string(),
                link["name"].get<std::string>());
    }
  }
  view.blocks["queue"] = std::move(queues);

  json waiting = nullptr;
  if (reading->waiting) {
    waiting = {{"reason", reading->waiting->reason},
               {"message", reading->waiting->message},
               {"since", time_or_null(reading->waiting->since)},
               {"blockedBy", nullptr}};
    if (reading->held_by) {
      waiting["blockedBy"] = blocker_json(*reading->held_by, context);
      view.note(reading->held_by->message);
    }
  }
  view.blocks["waiting"] = std::move(waiting);
  view.blocks["deactivation"] = reading->deactivated ? deactivation_json(*reading->deactivated) : json(nullptr);
  view.blocks["podSets"] = pod_sets_json(body);
  eviction_summary evictions = evictions_of(body);
  if (!evictions.total) {
    view.note(
        "Evicted, but this Kueue does not count evictions (schedulingStats came in v0.12): the number so far "
        "cannot be told.");
  }
  if (evictions.saturated) {
    view.note("The eviction counts add up past the largest number a count can hold: the total shown is held there.");
  }
  view.blocks["evictions"] = evictions_json(evictions);
  view.blocks["admissionChecks"] = admission_checks_json(workload, context);
  if (const packed_value* requeue = find(body, {"status", "requeueState"});
      requeue != nullptr && requeue->is_object()) {
    view.blocks["requeueState"] = {{"count", or_null(get_int(*requeue, {"count"}))},
                                   {"requeueAt", or_null(get_string(*requeue, {"requeueAt"}))}};
  } else {
    view.blocks["requeueState"] = nullptr;
  }
  view.blocks["priorityClass"] = priority_json(body);
  if (auto ref = priority_class_of(body); ref && ref->kind == "WorkloadPriorityClass") {
    view.link(context, "priorityClass", context.api_version(priority_class_kind), "WorkloadPriorityClass", "",
              ref->name);
  }
  auto maximum = get_int(body, {"spec", "maximumExecutionTimeSeconds"});
  auto accumulated = accumulated_execution_seconds(body);
  view.blocks["execution"] = {{"maximumSeconds", or_null(maximum)}, {"accumulatedPastSeconds", or_null(accumulated)}};
  link_owners(workload, context, view);
  view.blocks["conditions"] = status_conditions_json(body);
}

}  // namespace sextant::kueue
