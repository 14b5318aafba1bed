// Over 400 lines because it holds the one reading of each GPU Operator object (policy, driver,
// DaemonSet rollout, node GPU block), which share the component table; a file per object is the
// split when one of them grows.
#include "sections/gpu_operator/gpu_operator_reading.hpp"

#include <algorithm>
#include <charconv>

#include "sections/common/conditions.hpp"
#include "sections/common/field_types.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/words.hpp"
#include "sections/core/core_section.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"
#include "util/quantity.hpp"

namespace sextant::gpu_operator {
namespace {

std::string count_text(std::int64_t n, std::int64_t of, const char* what) {
  return std::to_string(n) + " of " + std::to_string(of) + " " + what;
}

// A component of the operator: its spec key, its default when the policy says nothing, and the
// DaemonSet name the operator gives it (GPU Operator v26.7.0, api/nvidia/v1 IsEnabled and assets/).
struct component_def {
  const char* name;
  const char* key;  // "" for components without a switch
  bool default_on;
  const char* daemonset;
  bool sandbox = false;   // deployed only with sandbox workloads on
  const char* mode = "";  // "kubevirt" or "kata": only in that sandbox mode
  bool not_with_driver_crd = false;
  bool never = false;  // deprecated: the operator never deploys it
  // One DaemonSet per kernel or RHCOS version, "<name>-<version>": the driver's precompiled and
  // OpenShift Driver Toolkit DaemonSets, and the vGPU manager's on OpenShift
  // (controllers/object_controls.go:3222-3225, 3281-3285, 4697-4718; found by prefix at :4247).
  bool suffixed = false;
  const char* first_version = "";  // the first operator release that deploys it, when after v23.6
};

const std::vector<component_def>& component_defs() {
  static const std::vector<component_def> defs = {
      {"driver", "driver", true, "nvidia-driver-daemonset", false, "", true, false, true},
      {"container toolkit", "toolkit", true, "nvidia-container-toolkit-daemonset"},
      {"operator validator", "", true, "nvidia-operator-validator"},
      {"device plugin", "devicePlugin", true, "nvidia-device-plugin-daemonset"},
      {"MPS control daemon", "devicePlugin", true, "nvidia-device-plugin-mps-control-daemon", false, "", false, false,
       false, "v24.3"},
      {"DCGM", "dcgm", true, "nvidia-dcgm"},
      {"DCGM exporter", "dcgmExporter", true, "nvidia-dcgm-exporter"},
      {"GPU Feature Discovery", "gfd", true, "gpu-feature-discovery"},
      {"MIG manager", "migManager", true, "nvidia-mig-manager"},
      {"node status exporter", "nodeStatusExporter", false, "nvidia-node-status-exporter"},
      {"vGPU manager", "vgpuManager", false, "nvidia-vgpu-manager-daemonset", true, "", true, false, true},
      {"vGPU device manager", "vgpuDeviceManager", false, "nvidia-vgpu-device-manager", true},
      {"sandbox validator", "", true, "nvidia-sandbox-validator", true},
      {"VFIO manager", "vfioManager", false, "nvidia-vfio-manager", true},
      {"sandbox device plugin", "sandboxDevicePlugin", false, "nvidia-sandbox-device-plugin-daemonset", true,
       "kubevirt"},
      {"Kata sandbox device plugin", "kataSandboxDevicePlugin", false, "nvidia-kata-sandbox-device-plugin-daemonset",
       true, "kata", false, false, false, "v26.3"},
      {"Kata manager", "kataManager", false, "nvidia-kata-manager", true, "", false, true},
      {"confidential computing manager", "ccManager", false, "nvidia-cc-manager", true, "kata"},
  };
  return defs;
}

// spec.<key>.enabled as written; a wrong type is noted and read as unset.
std::optional<bool> switch_of(const packed_value& body, const std::string& key, std::vector<std::string>& notes) {
  const packed_value* value = find(body, {"spec", key, "enabled"});
  if (value == nullptr || value->is_null()) {
    return std::nullopt;
  }
  if (!value->is_boolean()) {
    notes.push_back("spec." + key + ".enabled is not true or false; the operator's default is read.");
    return std::nullopt;
  }
  return value->as_bool();
}

// The policy the operator acts on: the one it writes a state to, and among several the oldest by
// creation time, the name breaking ties (getSingletonClusterPolicy, controllers/
// clusterpolicy_controller.go:120-131 at v26.7.0). Before v26.x the operator acted on the first
// policy it reconciled after it started, whatever its age (clusterpolicy_controller.go:102-107 at
// v23.6.2), so only the state it wrote tells which; neither writes a state to the others.
object_ptr acted_on_policy(const view_context& context) {
  object_ptr best;
  std::optional<time_point> best_at;
  bool best_has_state = false;
  for (const object_ptr& candidate : context.store.list(cluster_policy_kind)) {
    std::optional<time_point> made = created_at(candidate->body());
    bool has_state = !string_or(candidate->body(), {"status", "state"}).empty();
    bool better = !best || (has_state && !best_has_state) ||
                  (has_state == best_has_state &&
                   ((made && (!best_at || *made < *best_at)) || (made == best_at && candidate->name < best->name)));
    if (better) {
      best = candidate;
      best_at = made;
      best_has_state = has_state;
    }
  }
  return best;
}

// The operator writes status.state and its Ready/Error conditions in two separate writes
// (ClusterPolicy: updateCRState, then SetConditionsReady or SetConditionsError; the NVIDIA
// Driver's status update likewise), so a reader can find one half still from before the other.
// The state comes from status.state; a condition lends it its words only when it agrees.
object_state ready_state(const packed_value* ready) {
  if (condition_status(ready) != "True") {
    return {"Ready", "", ""};
  }
  return {"Ready", condition_reason(ready), condition_message(ready)};
}

object_state not_ready_state(const packed_value* ready, const packed_value* error, const std::string& state) {
  const packed_value* telling = nullptr;
  if (condition_status(error) == "True") {
    telling = error;
  } else if (ready != nullptr && condition_status(ready) != "True") {
    telling = ready;
  }
  object_state line{"Not ready", condition_reason(telling), condition_message(telling)};
  if (line.message.empty()) {
    line.message = "status.state is " + state + ".";
  }
  return line;
}

// Since when the operator's state has held: its Ready (else Error) condition's transition. An
// operator before v23.9 writes no conditions (ClusterPolicyStatus is state and namespace only,
// api/v1/clusterpolicy_types.go:1572-1578 at v23.6.2): nothing tells, and the problem engine
// counts from its first sighting; `notes` says so, after `which`.
std::optional<time_point> state_since(const packed_value& body, const packed_value* ready, const packed_value* error,
                                      const std::string& which, std::vector<std::string>& notes) {
  if (ready == nullptr && error == nullptr) {
    notes.push_back(which +
                    ": when it became not ready is not recorded, so its problem counts from when sextantd first "
                    "saw it not ready.");
    return std::nullopt;
  }
  return since_of(ready != nullptr ? ready : error, body);
}

// Since when a DaemonSet's pods have not all been ready, from their own Ready conditions (a
// DaemonSet carries no time): the earliest a pod not ready now became so, else its creation.
// Nullopt when the pods cannot be read or none is found not ready.
std::optional<time_point> pods_not_ready_since(const cached_object& daemonset, const rollout& status,
                                               const view_context& context) {
  if (!status.not_ready || daemonset.uid.empty() || !list_complete(context, core::pod_kind)) {
    return std::nullopt;
  }
  std::optional<time_point> earliest;
  for (const object_ptr& pod : context.store.owned_by(core::pod_kind, daemonset.uid)) {
    const packed_value* ready = condition_of(pod->body(), "Ready");
    if (pod->namespace_ != daemonset.namespace_ || condition_true(ready)) {
      continue;
    }
    std::optional<time_point> since = since_of(ready, pod->body());
    if (since && (!earliest || *since < *earliest)) {
      earliest = since;
    }
  }
  return earliest;
}

found_daemonset found_of(const object_ptr& daemonset, const view_context& context) {
  rollout status = read_rollout(daemonset->body());
  std::optional<time_point> since = pods_not_ready_since(*daemonset, status, context);
  return {daemonset, std::move(status), since};
}

std::optional<std::int64_t> int_label(const packed_value& node, const char* key) {
  std::string text = string_or(node, {"metadata", "labels", key});
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

rollout read_rollout(const packed_value& daemonset) {
  rollout r;
  auto count = [&](const char* field) {
    return std::max<std::int64_t>(0, get_int(daemonset, {"status", field}).value_or(0));
  };
  r.desired = count("desiredNumberScheduled");
  r.current = count("currentNumberScheduled");
  r.updated = count("updatedNumberScheduled");
  r.ready = count("numberReady");
  r.available = count("numberAvailable");
  std::optional<std::int64_t> generation = get_int(daemonset, {"metadata", "generation"});
  std::optional<std::int64_t> observed = get_int(daemonset, {"status", "observedGeneration"});
  r.observed = !generation || (observed && *observed >= *generation);
  r.not_updated = !r.observed || r.updated < r.desired;
  r.not_ready = r.ready < r.desired || r.available < r.desired;
  r.rolled_out = !r.not_updated && !r.not_ready;
  if (!r.observed) {
    r.words = "the DaemonSet controller has not seen the newest spec yet";
  } else if (r.desired == 0) {
    r.words = "rolled out: no node to run on";
  } else if (r.rolled_out) {
    r.words = "rolled out";
  } else {
    std::vector<std::string> parts;
    if (r.ready < r.desired) {
      parts.push_back(count_text(r.ready, r.desired, "ready"));
    }
    if (r.updated < r.desired) {
      parts.push_back(count_text(r.updated, r.desired, "updated"));
    }
    if (r.ready >= r.desired && r.available < r.desired) {
      parts.push_back(count_text(r.available, r.desired, "available"));
    }
    for (const std::string& part : parts) {
      r.words += (r.words.empty() ? "" : ", ") + part;
    }
  }
  return r;
}

json rollout_json(const rollout& r) {
  return json{{"desired", r.desired},     {"current", r.current},   {"updated", r.updated},      {"ready", r.ready},
              {"available", r.available}, {"observed", r.observed}, {"rolledOut", r.rolled_out}, {"words", r.words}};
}

policy_reading read_policy(const cached_object& policy, const view_context& context) {
  const packed_value& body = policy.body();
  policy_reading reading;
  reading.namespace_ = string_or(body, {"status", "namespace"});
  reading.mig_strategy = string_or(body, {"spec", "mig", "strategy"});
  reading.sandbox = switch_of(body, "sandboxWorkloads", reading.notes).value_or(false);
  reading.sandbox_mode = string_or(body, {"spec", "sandboxWorkloads", "mode"}, "kubevirt");
  const packed_value* crd = find(body, {"spec", "driver", "useNvidiaDriverCRD"});
  if (crd != nullptr && !crd->is_null() && !crd->is_boolean()) {
    reading.notes.push_back("spec.driver.useNvidiaDriverCRD is not true or false; it is read as false.");
  }
  reading.use_driver_crd = crd != nullptr && crd->is_boolean() && crd->as_bool();
  note_wrong_types(body, {{"status.conditions", field_type::array}}, reading.notes);

  // State: the operator's own status.state, with the Ready (else Error) condition's words.
  const std::string state = string_or(body, {"status", "state"});
  const packed_value* ready = condition_of(body, "Ready");
  const packed_value* error = condition_of(body, "Error");
  if (state == "ready") {
    reading.ready = true;
    reading.state = ready_state(ready);
  } else if (state.empty()) {
    object_ptr acted = acted_on_policy(context);
    if (acted && acted->name != policy.name) {
      reading.duplicate = true;
      reading.acted_on = acted->name;
      reading.state = {"Not ready", "Ignored",
                       "Not the Cluster Policy the operator acts on: it acts on the oldest, " +
                           std::string(acted->name) + ", and leaves this one without a state."};
    } else {
      reading.state = {"Not ready", "", "The operator has not written a state yet."};
      reading.since = created_at(body);
    }
  } else {
    reading.state = not_ready_state(ready, error, state);
    reading.since =
        state_since(body, ready, error,
                    "The operator writes no conditions before v23.9, and this Cluster Policy has none", reading.notes);
  }
  // A state without conditions is an operator from before v23.9.
  const bool before_v23_9 = !state.empty() && find(body, {"status", "conditions"}) == nullptr;

  // Components, by the DaemonSet names the operator gives them in status.namespace.
  reading.daemonsets_incomplete = incomplete_reason(context, daemonset_kind);
  std::vector<object_ptr> in_namespace;
  if (!reading.namespace_.empty()) {
    in_namespace = context.store.list(daemonset_kind, reading.namespace_);
    std::sort(in_namespace.begin(), in_namespace.end(),
              [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
  }
  for (const component_def& def : component_defs()) {
    if (def.sandbox && !reading.sandbox) {
      continue;
    }
    component row;
    row.name = def.name;
    row.daemonset = def.daemonset;
    if (*def.key != '\0') {
      row.setting = std::string("spec.") + def.key + ".enabled";
      row.set = switch_of(body, def.key, reading.notes);
    }
    bool on = row.set.value_or(def.default_on);
    // An operator before v23.9 deployed by the v23.6 rules: no sandbox modes (every sandbox
    // component whatever the mode), the Kata manager not yet deprecated, and none of the later
    // components (controllers/state_manager.go:987-1000 at v23.6.2).
    if (before_v23_9 && *def.first_version != '\0') {
      row.expected = false;
      row.expected_because = std::string("this operator predates v23.9 (it writes no conditions); the ") + def.name +
                             " came in " + def.first_version;
    } else if (def.never && !before_v23_9) {
      row.expected = false;
      row.expected_because = "deprecated: the operator no longer deploys it";
    } else if (*def.mode != '\0' && !before_v23_9 && reading.sandbox_mode != def.mode) {
      row.expected = false;
      row.expected_because = std::string("only in sandbox mode ") + def.mode;
    } else if (def.not_with_driver_crd && reading.use_driver_crd) {
      row.expected = false;
      row.expected_because = "useNvidiaDriverCRD is on: NVIDIA Driver objects deploy it";
    } else if (*def.key == '\0') {
      row.expected = true;
      row.expected_because = "always deployed";
    } else {
      row.expected = on;
      row.expected_because = row.set ? (on ? "enabled in the policy" : "disabled in the policy")
                                     : (on ? "on by the operator's default" : "off by the operator's default");
    }
    const std::string prefix = std::string(def.daemonset) + "-";
    for (const object_ptr& ds : in_namespace) {
      if (ds->name == def.daemonset || (def.suffixed && ds->name.starts_with(prefix))) {
        row.found.push_back(found_of(ds, context));
      }
    }
    if (reading.namespace_.empty()) {
      row.exists = json(cannot_tell);
    } else {
      row.exists = exists_json(!row.found.empty(), context, daemonset_kind);
    }
    if (def.not_with_driver_crd && reading.use_driver_crd && std::string_view(def.name) == "driver") {
      row.via_driver_objects = true;
      row.drivers = context.store.list(nvidia_driver_kind);
      std::sort(row.drivers.begin(), row.drivers.end(),
                [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
    }
    if (row.via_driver_objects) {
      row.words = row.drivers.empty() ? "useNvidiaDriverCRD is on, and no NVIDIA Driver object exists"
                                      : "deployed by " + std::to_string(row.drivers.size()) + " NVIDIA Driver object" +
                                            (row.drivers.size() == 1 ? "" : "s");
      if (!row.found.empty()) {
        row.words += "; the policy's own driver DaemonSet is still there (orphaned, its pods run until replaced)";
      }
    } else if (!row.found.empty()) {
      std::string words;
      bool all_out = true;
      for (const found_daemonset& f : row.found) {
        words += (words.empty() ? "" : "; ") + (row.found.size() > 1 ? std::string(f.object->name) + ": " : "") +
                 f.status.words;
        all_out = all_out && f.status.rolled_out;
      }
      row.words = row.expected ? words : "not expected, but found: " + words;
      row.not_rolled_out = row.expected && !all_out;
    } else if (row.exists.is_string()) {
      row.words = reading.namespace_.empty()
                      ? "cannot tell: the policy names no namespace in status.namespace yet"
                      : "cannot tell: " + (reading.daemonsets_incomplete.empty() ? std::string("the DaemonSet list")
                                                                                 : reading.daemonsets_incomplete);
    } else if (row.expected && *def.first_version != '\0') {
      row.words = std::string("expected but not found (operators before ") + def.first_version + " do not deploy it)";
    } else {
      row.words = row.expected ? "expected but not found" : "not expected";
    }
    reading.components.push_back(std::move(row));
  }
  if (!reading.duplicate && reading.namespace_.empty()) {
    reading.notes.push_back("status.namespace is not written yet: the components' DaemonSets cannot be looked up.");
  }
  return reading;
}

driver_reading read_driver(const cached_object& driver, const view_context& context) {
  const packed_value& body = driver.body();
  driver_reading reading;
  reading.driver_type = string_or(body, {"spec", "driverType"}, "gpu");
  const std::string state = string_or(body, {"status", "state"});
  const packed_value* ready = condition_of(body, "Ready");
  const packed_value* error = condition_of(body, "Error");
  if (state == "ready") {
    reading.ready = true;
    reading.state = ready_state(ready);
  } else if (state == "disabled") {
    reading.disabled = true;
    // The operator writes Error=True with reason Reconciled here; the message tells why.
    std::string message = condition_message(error);
    reading.state = {"Not ready", "Disabled",
                     message.empty() ? "The operator disabled this NVIDIA Driver." : as_sentence(message)};
  } else if (state.empty()) {
    reading.state = {"Not ready", "", "The operator has not written a state yet."};
    reading.since = created_at(body);
  } else {
    reading.state = not_ready_state(ready, error, state);
    reading.since = state_since(body, ready, error, "This NVIDIA Driver has no conditions yet", reading.notes);
  }
  std::vector<object_ptr> owned = context.store.owned_by(daemonset_kind, driver.uid);
  std::sort(owned.begin(), owned.end(), [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
  for (const object_ptr& ds : driver.uid.empty() ? std::vector<object_ptr>{} : owned) {
    reading.daemonsets.push_back(found_of(ds, context));
  }
  reading.daemonsets_incomplete = incomplete_reason(context, daemonset_kind);
  return reading;
}

gpu_node_reading read_gpu_node(const packed_value& node) {
  gpu_node_reading r;
  r.present_label = string_or(node, {"metadata", "labels", std::string(gpu_present_label)});
  r.present = r.present_label == "true";
  r.product = string_or(node, {"metadata", "labels", "nvidia.com/gpu.product"});
  r.count = int_label(node, "nvidia.com/gpu.count");
  r.memory_mib = int_label(node, "nvidia.com/gpu.memory");
  r.mig_capable = string_or(node, {"metadata", "labels", "nvidia.com/mig.capable"});
  r.mig_strategy = string_or(node, {"metadata", "labels", "nvidia.com/mig.strategy"});
  r.mig_config = string_or(node, {"metadata", "labels", "nvidia.com/mig.config"});
  r.mig_state = string_or(node, {"metadata", "labels", std::string(mig_config_state_label)});
  const packed_value& capacity = object_or_empty(node, {"status", "capacity"});
  const packed_value& allocatable = object_or_empty(node, {"status", "allocatable"});
  std::vector<std::string> names;
  for (const packed_value* side : {&capacity, &allocatable}) {
    if (!side->is_object()) {
      continue;
    }
    for (const auto& [key, value] : side->items()) {
      // nvidia.com/gpu.shared: GPUs the device plugin shares (time-slicing or MPS) and renames with
      // renameByDefault (NVIDIA/k8s-device-plugin api/config/v1/replicas.go:204-207); MIG devices
      // shared so are nvidia.com/mig-<profile>.shared.
      if ((key == "nvidia.com/gpu" || key == "nvidia.com/gpu.shared" || key.starts_with("nvidia.com/mig-")) &&
          std::find(names.begin(), names.end(), key) == names.end()) {
        names.emplace_back(key);
      }
    }
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const packed_value* cap = capacity.is_object() ? capacity.member(name) : nullptr;
    const packed_value* alloc = allocatable.is_object() ? allocatable.member(name) : nullptr;
    r.resources.push_back({{"resource", name},
                           {"capacity", cap != nullptr ? json(quantity_text(*cap)) : json(nullptr)},
                           {"allocatable", alloc != nullptr ? json(quantity_text(*alloc)) : json(nullptr)}});
  }
  const packed_value& labels = object_or_empty(node, {"metadata", "labels"});
  if (labels.is_object()) {
    static constexpr std::string_view deploy = "nvidia.com/gpu.deploy.";
    for (const auto& [key, value] : labels.items()) {
      if (key.starts_with(deploy) && value.is_string() && value.string_view() == "false") {
        r.opted_out.emplace_back(key.substr(deploy.size()));
      }
    }
  }
  return r;
}

bool has_gpu_traces(const packed_value& node) {
  const packed_value& labels = object_or_empty(node, {"metadata", "labels"});
  if (labels.is_object() && labels.member(gpu_present_label) != nullptr) {
    return true;
  }
  return !read_gpu_node(node).resources.empty();
}

namespace {

std::string mig_state_meaning(const std::string& state) {
  if (state == "pending") {
    return "the MIG manager is applying the configuration";
  }
  if (state == "rebooting") {
    return "the node reboots to apply the configuration";
  }
  if (state == "success") {
    return "the configuration is applied";
  }
  if (state == "failed") {
    return "the MIG manager failed to apply the configuration (see its pod's log on this node)";
  }
  return state.empty() ? "no MIG configuration state written (no MIG manager on this node, or MIG not used)"
                       : "a state the MIG manager does not write";
}

}  // namespace

json gpu_block_json(const gpu_node_reading& r) {
  json opted = json::array();
  for (const std::string& operand : r.opted_out) {
    opted.push_back(operand);
  }
  return json{{"present", r.present},
              {"presentLabel", or_null(r.present_label)},
              {"product", or_null(r.product)},
              {"count", or_null(r.count)},
              {"memoryMiB", or_null(r.memory_mib)},
              {"mig",
               {{"capable", or_null(r.mig_capable)},
                {"strategy", or_null(r.mig_strategy)},
                {"config", or_null(r.mig_config)},
                {"configState", or_null(r.mig_state)},
                {"configStateMeaning", mig_state_meaning(r.mig_state)}}},
              {"resources", r.resources},
              {"optedOut", std::move(opted)}};
}

}  // namespace sextant::gpu_operator
