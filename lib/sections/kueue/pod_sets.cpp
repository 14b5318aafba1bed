#include "sections/kueue/pod_sets.hpp"

#include "sections/common/pod_requests.hpp"

namespace sextant::kueue {
namespace {

const packed_value* find_named(const packed_value& array, const std::string& name) {
  if (!array.is_array()) {
    return nullptr;
  }
  for (const packed_value& entry : array) {
    if (string_or(entry, {"name"}) == name) {
      return &entry;
    }
  }
  return nullptr;
}

}  // namespace

json pod_set_requests(const packed_value& pod_set) {
  if (const packed_value* cached = find(pod_set, {requests_per_pod_member}); cached != nullptr && cached->is_object()) {
    return *cached;
  }
  const packed_value* pod_spec = find(pod_set, {"template", "spec"});
  if (pod_spec == nullptr) {
    return nullptr;
  }
  return pod_requests(*pod_spec);
}

json pod_sets_json(const packed_value& workload) {
  const packed_value& assignments = array_or_empty(workload, {"status", "admission", "podSetAssignments"});
  const packed_value& kueue_requests = array_or_empty(workload, {"status", "resourceRequests"});
  json out = json::array();
  for (const packed_value& pod_set : array_or_empty(workload, {"spec", "podSets"})) {
    std::string name = string_or(pod_set, {"name"});
    std::int64_t count = get_int(pod_set, {"count"}).value_or(1);
    json per_pod = pod_set_requests(pod_set);
    json total = nullptr;
    // Kueue's own total for a Workload it has not admitted, else ours from the template.
    if (const packed_value* requested = find_named(kueue_requests, name)) {
      total = object_or_empty(*requested, {"resources"});
    } else if (per_pod.is_object()) {
      total = scaled_requests(per_pod, count);
    }
    json entry = {{"name", name},
                  {"count", count},
                  {"minCount", get_int(pod_set, {"minCount"}) ? json(*get_int(pod_set, {"minCount"})) : json(nullptr)},
                  {"requestsPerPod", per_pod},
                  {"requests", total},
                  {"assigned", nullptr}};
    if (const packed_value* assignment = find_named(assignments, name)) {
      entry["assigned"] = {
          {"flavors", object_or_empty(*assignment, {"flavors"})},
          {"resourceUsage", object_or_empty(*assignment, {"resourceUsage"})},
          {"count", get_int(*assignment, {"count"}) ? json(*get_int(*assignment, {"count"})) : json(count)}};
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace sextant::kueue
