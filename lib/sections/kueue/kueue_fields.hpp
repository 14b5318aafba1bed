#pragma once
// Readers for the fields v1beta1 and v1beta2 spell differently, and for the links between
// Kueue's objects. Each reads whichever spelling the object carries, so one interpreter serves
// both versions (and the v1alpha1 Cohort of v0.9–v0.12).
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"
#include "sections/view_context.hpp"
#include "store/object.hpp"
#include "store/packed_value.hpp"

namespace sextant::kueue {

// ClusterQueue.spec.cohortName (v1beta2) or .cohort (v1beta1); empty when in no cohort.
std::string cohort_of(const packed_value& cluster_queue);
// Cohort.spec.parentName (v1beta1+) or .parent (v1alpha1).
std::string parent_of(const packed_value& cohort);
// The admission checks a ClusterQueue names: spec.admissionChecks (v1beta1 names) and
// spec.admissionChecksStrategy.admissionChecks[].name (both versions).
std::vector<std::string> admission_checks_of(const packed_value& cluster_queue);
// LocalQueue.status.flavorsUsage (v1beta2) or .flavorUsage (v1beta1).
const packed_value& local_queue_usage(const packed_value& local_queue);
// Workload.status.accumulatedPastExecutionTimeSeconds, or v1beta1's misspelt field.
std::optional<std::int64_t> accumulated_execution_seconds(const packed_value& workload);

// A Workload's priority class: v1beta2 priorityClassRef, or v1beta1 name + source.
struct priority_class_ref {
  std::string name;
  std::string kind;  // "WorkloadPriorityClass" or "PriorityClass"
};
std::optional<priority_class_ref> priority_class_of(const packed_value& workload);

// spec.stopPolicy, "None" when unset.
std::string stop_policy_of(const packed_value& queue);
bool being_deleted(const packed_value& object);

// The apiVersion to write in a link to a Kueue kind: the object's own when cached, else the
// version the cluster prefers, else v1beta2.
std::string kueue_api_version(const view_context& context, const kind_key& type);

// A link object {apiVersion, kind, namespace, name, path} as in a details answer's links.
json link_json(const view_context& context, const kind_key& type, const std::string& api_version,
               const std::string& namespace_, const std::string& name);
json link_json(const view_context& context, const cached_object& object);
// A link to a Kueue object by name: the cached one's version when it is there.
json kueue_link(const view_context& context, const kind_key& type, const std::string& namespace_,
                const std::string& name);

// Whether the cached list of a kind is the whole truth (complete, not cut, readable).
bool list_complete(const view_context& context, const kind_key& type);

// The Kueue condition "type" of an object, or nullptr.
const packed_value* condition_of(const packed_value& object, std::string_view type);
std::optional<time_point> transition_time(const packed_value* condition);
std::optional<time_point> created_at(const packed_value& object);
// Condition fields as plain JSON: {type, status, reason, message, lastTransitionTime}.
json conditions_json(const packed_value& object);

// A field the views read, by its dotted path, and the JSON type it must have.
enum class field_type { string, integer, boolean, array, object };
struct expected_field {
  std::string_view path;  // "spec.queueName"
  field_type type;
};
// The readers skip a field of another type; this says so, in the words DRA's views use
// ("spec.queueName is not a string; it is left out."), once per such field.
void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view);

}  // namespace sextant::kueue
