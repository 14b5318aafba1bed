#pragma once
// A ResourceSlice read from any version: v1alpha3 and v1beta1 wrap each device's fields in
// `basic` (v1alpha3 capacities are bare quantities), v1beta2 and v1 flatten them and give
// capacities as {value}. Node scope is the slice's nodeName / nodeSelector / allNodes, or each
// device's own when the slice sets perDeviceNodeSelection.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/dra/field_text.hpp"
#include "store/packed_value.hpp"

namespace sextant::dra {

struct published_device {
  std::string name;
  json attributes = json::object();  // {name: value}
  json capacity = json::object();    // {name: quantity text}
  std::string node;                  // the node it is pinned to, if any
  std::string node_selector;         // a selector as text, if it has one
  bool all_nodes = false;
  json taints = json::array();  // as written
};

struct slice_info {
  std::string driver;
  std::string pool;
  std::optional<std::int64_t> generation;
  std::optional<std::int64_t> slice_count;  // pool.resourceSliceCount
  std::string node_name;
  std::string node_selector;  // text
  bool all_nodes = false;
  bool per_device_node_selection = false;
  std::vector<published_device> devices;
  json shared_counters = json::array();  // as written
  reading_notes notes;
};

slice_info read_slice(const packed_value& slice);

// Where a slice or device may be used, in words: "node gpu-node-1", "every node", a selector.
std::string node_scope_text(const std::string& node, const std::string& selector, bool all_nodes);

}  // namespace sextant::dra
