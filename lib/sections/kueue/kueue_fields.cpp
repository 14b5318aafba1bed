#include "sections/kueue/kueue_fields.hpp"

#include <algorithm>

namespace sextant::kueue {

std::string cohort_of(const packed_value& cluster_queue) {
  std::string cohort = string_or(cluster_queue, {"spec", "cohortName"});
  return cohort.empty() ? string_or(cluster_queue, {"spec", "cohort"}) : cohort;
}

std::string parent_of(const packed_value& cohort) {
  std::string parent = string_or(cohort, {"spec", "parentName"});
  return parent.empty() ? string_or(cohort, {"spec", "parent"}) : parent;
}

std::vector<std::string> admission_checks_of(const packed_value& cluster_queue) {
  std::vector<std::string> names;
  auto add = [&names](std::string name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(std::move(name));
    }
  };
  for (const packed_value& name : array_or_empty(cluster_queue, {"spec", "admissionChecks"})) {
    if (name.is_string()) {
      add(name.get<std::string>());
    }
  }
  for (const packed_value& rule :
       array_or_empty(cluster_queue, {"spec", "admissionChecksStrategy", "admissionChecks"})) {
    add(string_or(rule, {"name"}));
  }
  return names;
}

const packed_value& local_queue_usage(const packed_value& local_queue) {
  if (const packed_value* usage = find(local_queue, {"status", "flavorsUsage"});
      usage != nullptr && usage->is_array()) {
    return *usage;
  }
  return array_or_empty(local_queue, {"status", "flavorUsage"});
}

std::optional<std::int64_t> accumulated_execution_seconds(const packed_value& workload) {
  if (auto seconds = get_int(workload, {"status", "accumulatedPastExecutionTimeSeconds"})) {
    return seconds;
  }
  return get_int(workload, {"status", "accumulatedPastExexcutionTimeSeconds"});
}

std::optional<priority_class_ref> priority_class_of(const packed_value& workload) {
  if (const packed_value* ref = find(workload, {"spec", "priorityClassRef"}); ref != nullptr && ref->is_object()) {
    return priority_class_ref{string_or(*ref, {"name"}), string_or(*ref, {"kind"}, "WorkloadPriorityClass")};
  }
  std::string name = string_or(workload, {"spec", "priorityClassName"});
  if (name.empty()) {
    return std::nullopt;
  }
  std::string source = string_or(workload, {"spec", "priorityClassSource"});
  return priority_class_ref{name,
                            source == "scheduling.k8s.io/priorityclass" ? "PriorityClass" : "WorkloadPriorityClass"};
}

std::string stop_policy_of(const packed_value& queue) {
  return string_or(queue, {"spec", "stopPolicy"}, "None");
}

}  // namespace sextant::kueue
