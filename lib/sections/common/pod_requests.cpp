#include "sections/common/pod_requests.hpp"

#include <map>
#include <string>

#include "util/quantity.hpp"

namespace sextant {
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

}  // namespace

json pod_requests(const packed_value& pod_spec) {
  resource_sums sums;
  for (const packed_value& container : array_or_empty(pod_spec, {"containers"})) {
    add(sums, container_requests(container));
  }
  for (const packed_value& container : array_or_empty(pod_spec, {"initContainers"})) {
    for (const auto& [name, sum] : container_requests(container)) {
      if (sum.value > sums[name].value) {
        sums[name] = sum;
      }
    }
  }
  resource_sums overhead;
  for (const auto& [name, value] : object_or_empty(pod_spec, {"overhead"}).items()) {
    if (auto parsed = quantity_of(value)) {
      overhead[std::string(name)] = {parsed->value, parsed->style};
    }
  }
  add(sums, overhead);
  return to_json(sums);
}

json scaled_requests(const json& per_pod, std::int64_t count) {
  json out = json::object();
  for (const auto& [name, value] : per_pod.items()) {
    if (auto parsed = quantity_of(value)) {
      out[name] = format_quantity(parsed->value * static_cast<long double>(count), parsed->style);
    }
  }
  return out;
}

}  // namespace sextant
