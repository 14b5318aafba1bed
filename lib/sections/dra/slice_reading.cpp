#include "sections/dra/slice_reading.hpp"

#include "sections/dra/node_selector_text.hpp"

namespace sextant::dra {
namespace {

published_device read_device(const packed_value& device, const slice_info& slice, reading_notes& notes,
                             std::size_t index) {
  published_device out;
  out.name = string_or(device, {"name"});
  if (out.name.empty()) {
    out.name = "#" + std::to_string(index + 1);
    notes.add("Device " + out.name + " has no name.");
  }
  // v1alpha3 and v1beta1 keep the fields under `basic`; v1beta2 and v1 on the device itself.
  const packed_value* basic = find(device, {"basic"});
  const packed_value& fields = basic != nullptr && basic->is_object() ? *basic : device;
  out.attributes = attribute_map(member(fields, "attributes"), notes, out.name);
  out.capacity = capacity_map(member(fields, "capacity"), notes, out.name);
  if (const packed_value* taints = find(fields, {"taints"}); taints != nullptr && taints->is_array()) {
    out.taints = *taints;
  }
  out.node = string_or(fields, {"nodeName"});
  if (const packed_value* selector = find(fields, {"nodeSelector"}); selector != nullptr && selector->is_object()) {
    out.node_selector = node_selector_text(*selector);
  }
  out.all_nodes = get_bool(fields, {"allNodes"}).value_or(false);
  // Without per-device selection every device shares the slice's scope.
  if (!slice.per_device_node_selection || (out.node.empty() && out.node_selector.empty() && !out.all_nodes)) {
    out.node = slice.node_name;
    out.node_selector = slice.node_selector;
    out.all_nodes = slice.all_nodes;
  }
  return out;
}

}  // namespace

slice_info read_slice(const packed_value& slice) {
  slice_info out;
  const packed_value* spec = find(slice, {"spec"});
  if (spec == nullptr || !spec->is_object()) {
    out.notes.add(spec == nullptr ? "The slice has no spec: it publishes nothing Sextant can read."
                                  : "The slice spec is not an object: it publishes nothing Sextant can read.");
    return out;
  }
  out.driver = string_or(*spec, {"driver"});
  if (out.driver.empty()) {
    out.notes.add("The slice names no driver.");
  }
  const packed_value& pool = member(*spec, "pool");
  if (!pool.is_object()) {
    out.notes.add("The slice names no pool.");
  }
  out.pool = string_or(pool, {"name"});
  out.generation = get_int(pool, {"generation"});
  out.slice_count = get_int(pool, {"resourceSliceCount"});
  out.node_name = string_or(*spec, {"nodeName"});
  if (const packed_value* selector = find(*spec, {"nodeSelector"}); selector != nullptr && selector->is_object()) {
    out.node_selector = node_selector_text(*selector);
    if (auto node = pinned_node(*selector)) {
      out.node_name = *node;
    }
  }
  out.all_nodes = get_bool(*spec, {"allNodes"}).value_or(false);
  out.per_device_node_selection = get_bool(*spec, {"perDeviceNodeSelection"}).value_or(false);
  if (const packed_value* counters = find(*spec, {"sharedCounters"}); counters != nullptr && counters->is_array()) {
    out.shared_counters = *counters;
  }
  if (const packed_value* devices = find(*spec, {"devices"}); devices != nullptr) {
    if (!devices->is_array()) {
      out.notes.wrong_type("spec.devices", field_type::array);
    } else {
      for (std::size_t i = 0; i < devices->size(); ++i) {
        if (!(*devices)[i].is_object()) {
          out.notes.wrong_type("Device #" + std::to_string(i + 1), field_type::object);
          continue;
        }
        out.devices.push_back(read_device((*devices)[i], out, out.notes, i));
      }
    }
  }
  return out;
}

std::string node_scope_text(const std::string& node, const std::string& selector, bool all_nodes) {
  if (!node.empty()) {
    return "node " + node;
  }
  if (!selector.empty()) {
    return "nodes matching " + selector;
  }
  if (all_nodes) {
    return "every node";
  }
  return "no node named";
}

}  // namespace sextant::dra
