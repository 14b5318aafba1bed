#pragma once
// Readers for the fields v1beta1 and v1beta2 spell differently. Each reads whichever spelling the
// object carries, so one interpreter serves both versions (and the v1alpha1 Cohort of v0.9–v0.12).
// Conditions, links, list completeness and metadata come from the sections' toolkit (common/).
#include <optional>
#include <string>
#include <vector>

#include "sections/common/conditions.hpp"
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
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

}  // namespace sextant::kueue
