#pragma once
// One reading of each GPU Operator object, shared by its state, summary, details and problem
// rules: a Cluster Policy with the components it deploys, an NVIDIA Driver with the DaemonSets
// it owns, a DaemonSet's rollout, and a node's GPU block (from its labels and resources alone).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::gpu_operator {

// A DaemonSet's rollout, from its status counts.
struct rollout {
  std::int64_t desired = 0;
  std::int64_t current = 0;
  std::int64_t updated = 0;
  std::int64_t ready = 0;
  std::int64_t available = 0;
  bool observed = true;  // status.observedGeneration has caught up with metadata.generation
  bool rolled_out = false;
  bool not_ready = false;    // fewer pods ready (or available) than desired
  bool not_updated = false;  // fewer pods updated than desired, or the newest spec not seen yet
  std::string words;         // "rolled out", "3 of 8 ready", ...
};
rollout read_rollout(const packed_value& daemonset);
json rollout_json(const rollout& r);

// A DaemonSet as a component or a driver row finds it.
struct found_daemonset {
  object_ptr object;
  rollout status;
  // Since when its pods have not all been ready, from their Ready conditions; nullopt when it is
  // ready or the pods do not tell.
  std::optional<time_point> not_ready_since;
};

// One component the operator deploys.
struct component {
  std::string name;         // "device plugin"
  std::string setting;      // "spec.devicePlugin.enabled", empty for components without a switch
  std::optional<bool> set;  // the policy's value, nullopt when it says nothing
  bool expected = false;
  std::string expected_because;
  std::string daemonset;               // the name the operator gives its DaemonSet
  json exists;                         // true, false or "cannot tell"
  std::vector<found_daemonset> found;  // the DaemonSets found (precompiled drivers may have several)
  bool via_driver_objects = false;     // the driver row with useNvidiaDriverCRD: NVIDIA Drivers own them
  std::vector<object_ptr> drivers;     // those NVIDIA Drivers
  std::string words;                   // "rolled out", "3 of 8 ready", "expected but not found", ...
  bool not_rolled_out = false;         // expected, found, and not ready or not updated
};

struct policy_reading {
  object_state state;
  std::optional<time_point> since;  // since when it is not ready
  bool ready = false;
  bool duplicate = false;    // not the policy the operator acts on
  std::string acted_on;      // the one it acts on, when this is a duplicate
  std::string namespace_;    // status.namespace
  std::string mig_strategy;  // "" when unset
  bool sandbox = false;
  std::string sandbox_mode;  // "kubevirt" (default) or "kata"
  bool use_driver_crd = false;
  std::vector<component> components;
  std::string daemonsets_incomplete;  // why the DaemonSet list may be incomplete, or empty
  std::vector<std::string> notes;
};
policy_reading read_policy(const cached_object& policy, const view_context& context);

struct driver_reading {
  object_state state;
  std::optional<time_point> since;
  bool ready = false;
  bool disabled = false;
  std::string driver_type;  // spec.driverType, "gpu" when unset
  std::vector<found_daemonset> daemonsets;
  std::string daemonsets_incomplete;
  std::vector<std::string> notes;
};
driver_reading read_driver(const cached_object& driver, const view_context& context);

// A node's GPU block from its labels, capacity and allocatable.
struct gpu_node_reading {
  bool present = false;       // nvidia.com/gpu.present is "true"
  std::string present_label;  // as written
  std::string product;
  std::optional<std::int64_t> count;
  std::optional<std::int64_t> memory_mib;
  std::string mig_capable;
  std::string mig_strategy;
  std::string mig_config;
  std::string mig_state;
  json resources = json::array();      // [{resource, capacity, allocatable}]
  std::vector<std::string> opted_out;  // operands with nvidia.com/gpu.deploy.<operand>=false
};
gpu_node_reading read_gpu_node(const packed_value& node);
json gpu_block_json(const gpu_node_reading& reading);
// Whether the node carries anything of the GPU Operator (labels or resources).
bool has_gpu_traces(const packed_value& node);

}  // namespace sextant::gpu_operator
