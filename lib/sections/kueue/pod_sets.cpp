#include "sections/kueue/pod_sets.hpp"

#include <map>

#include "sections/kueue/quantity.hpp"

namespace sextant::kueue {
namespace {

struct resource_sum {
  long double value = 0;
  quantity_style style = quantity_style::plain;
};
using resource_sums = std::map<std::string, resource_sum>;

// A container's requests, with limits for the resources it requests nothing of.
resource_sums container_requests(const packed_value& container) {
  resource_sums out;
  for (const char* field : {"limits", "requests"}) {
    for (const auto& [name, value] : object_or_empty(container, {"resources", field}).items()) {
      if (auto parsed = quantity_of(value)) {
        out[std::string(name)] = {parsed->value, parsed->style};
      }
    }
  }
  return out;
}

void add(resource_sums& into, const resource_sums& more) {
  for (const auto& [name, sum] : more) {
    resource_sum& target = into[name];
    target.value += sum.value;
    if (sum.style != quantity_style::plain) {
      target.style = sum.style;
    }
  }
}

json to_json(const resource_sums& sums) {
  json out = json::object();
  for (const auto& [name, sum] : sums) {
    out[name] = format_quantity(sum.value, sum.style);
  }
  return out;
}

json times(const json& per_pod, std::int64_t count) {
  json out = json::object();
  for (const auto& [name, value] : per_pod.items()) {
    if (auto parsed = quantity_of(value)) {
      out[name] = format_quantity(parsed->value * static_cast<long double>(count), parsed->style);
    }
  }
  return out;
}

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
  resource_sums sums;
  for (const packed_value& container : array_or_empty(*pod_spec, {"containers"})) {
    add(sums, container_requests(container));
  }
  for (const packed_value& container : array_or_empty(*pod_spec, {"initContainers"})) {
    for (const auto& [name, sum] : container_requests(container)) {
      if (sum.value > sums[name].value) {
        sums[name] = sum;
      }
    }
  }
  resource_sums overhead;
  for (const auto& [name, value] : object_or_empty(*pod_spec, {"overhead"}).items()) {
    if (auto parsed = quantity_of(value)) {
      overhead[std::string(name)] = {parsed->value, parsed->style};
    }
  }
  add(sums, overhead);
  return to_json(sums);
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
      total = times(per_pod, count);
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
