// The GPU Operator's views: a Cluster Policy's state, components and MIG strategy; an NVIDIA
// Driver's state and DaemonSets; a DaemonSet's rollout; the GPU nodes page and a node's GPU
// block. Each renders from one reading (gpu_operator_reading.hpp).
#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/common/field_types.hpp"
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/read_once.hpp"
#include "sections/core/core_section.hpp"
#include "sections/gpu_operator/gpu_operator_reading.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"

namespace sextant::gpu_operator {
namespace {

json daemonset_row(const found_daemonset& found, const view_context& context) {
  json row = link_json(context, *found.object);
  row["rollout"] = rollout_json(found.status);
  return row;
}

json mig_json(const policy_reading& reading) {
  if (reading.mig_strategy.empty()) {
    return json{{"strategy", "not set"},
                {"explanation",
                 "The policy sets no MIG strategy: the device plugin and GPU Feature Discovery then decide on each "
                 "node, and their default is none."}};
  }
  std::string explanation = reading.mig_strategy == "none"     ? "MIG devices are not exposed; GPUs are nvidia.com/gpu."
                            : reading.mig_strategy == "single" ? "Every GPU of a node has the same MIG layout; MIG "
                                                                 "devices are exposed as nvidia.com/gpu."
                            : reading.mig_strategy == "mixed"
                                ? "MIG devices are exposed per profile as nvidia.com/mig-<profile>."
                                : "Not a strategy the operator knows (none, single or mixed).";
  return json{{"strategy", reading.mig_strategy}, {"explanation", explanation}};
}

}  // namespace

object_state policy_state(const cached_object& policy, const view_context& context) {
  return read_once(policy, context, read_policy)->state;
}

void policy_summary(const cached_object& policy, const view_context& context, json& summary) {
  const auto reading = read_once(policy, context, read_policy);
  summary["operatorNamespace"] = or_null(reading->namespace_);
  summary["duplicate"] = reading->duplicate;
  summary["migStrategy"] = reading->mig_strategy.empty() ? json("not set") : json(reading->mig_strategy);
}

void policy_details(const cached_object& policy, const view_context& context, details_view& view) {
  const auto reading = read_once(policy, context, read_policy);
  add_notes(reading->notes, view);
  view.blocks["since"] = time_or_null(reading->since);
  view.blocks["actedOn"] = reading->duplicate ? json(reading->acted_on) : json(nullptr);
  if (reading->duplicate) {
    view.note("This Cluster Policy is a duplicate: the operator acts only on " + reading->acted_on +
              ", the oldest, and writes no state here.");
    view.link(context, "acted-on", context.api_version(cluster_policy_kind), "ClusterPolicy", "", reading->acted_on);
  }
  view.blocks["sandboxWorkloads"] =
      json{{"enabled", reading->sandbox}, {"mode", reading->sandbox ? json(reading->sandbox_mode) : json(nullptr)}};
  view.blocks["useNvidiaDriverCRD"] = reading->use_driver_crd;
  view.blocks["mig"] = mig_json(*reading);
  json rows = json::array();
  for (const component& c : reading->components) {
    json daemonsets = json::array();
    for (const found_daemonset& f : c.found) {
      daemonsets.push_back(daemonset_row(f, context));
      view.link(context, "daemonset", *f.object);
    }
    json row = {{"component", c.name},     {"setting", or_null(c.setting)},         {"set", or_null(c.set)},
                {"expected", c.expected},  {"expectedBecause", c.expected_because}, {"daemonSet", c.daemonset},
                {"exists", c.exists},      {"daemonSets", std::move(daemonsets)},   {"status", c.words},
                {"nvidiaDrivers", nullptr}};
    if (c.via_driver_objects) {
      json drivers = json::array();
      for (const object_ptr& driver : c.drivers) {
        driver_reading d = read_driver(*driver, context);
        json entry = link_json(context, *driver);
        entry["state"] = {{"label", d.state.label}, {"reason", d.state.reason}, {"message", d.state.message}};
        json owned = json::array();
        for (const found_daemonset& f : d.daemonsets) {
          owned.push_back(daemonset_row(f, context));
        }
        entry["daemonSets"] = std::move(owned);
        drivers.push_back(std::move(entry));
        view.link(context, "nvidiadriver", *driver);
      }
      row["nvidiaDrivers"] = std::move(drivers);
    }
    rows.push_back(std::move(row));
  }
  view.blocks["components"] = std::move(rows);
  if (!reading->daemonsets_incomplete.empty()) {
    view.note(may_be_incomplete("The components' DaemonSets", reading->daemonsets_incomplete));
  }
  view.blocks["conditions"] = status_conditions_json(policy.body());
}

object_state driver_state(const cached_object& driver, const view_context& context) {
  return read_once(driver, context, read_driver)->state;
}

void driver_summary(const cached_object& driver, const view_context& context, json& summary) {
  const auto reading = read_once(driver, context, read_driver);
  summary["driverType"] = reading->driver_type;
}

void driver_details(const cached_object& driver, const view_context& context, details_view& view) {
  const auto reading = read_once(driver, context, read_driver);
  const packed_value& body = driver.body();
  add_notes(reading->notes, view);
  view.blocks["since"] = time_or_null(reading->since);
  const packed_value* selector = find(body, {"spec", "nodeSelector"});
  view.blocks["nodeSelector"] = selector != nullptr && selector->is_object() ? json(*selector) : json(nullptr);
  note_wrong_types(body, {{"spec.nodeSelector", field_type::map}}, view);
  view.blocks["default"] = get_bool(body, {"spec", "default"}).value_or(false);
  view.blocks["operatorNamespace"] = or_null(string_or(body, {"status", "namespace"}));
  json rows = json::array();
  for (const found_daemonset& f : reading->daemonsets) {
    rows.push_back(daemonset_row(f, context));
    view.link(context, "daemonset", *f.object);
  }
  view.blocks["daemonSets"] = {{"items", std::move(rows)},
                               {"incomplete", !reading->daemonsets_incomplete.empty()},
                               {"incompleteReason", or_null(reading->daemonsets_incomplete)}};
  if (!reading->daemonsets_incomplete.empty()) {
    view.note(may_be_incomplete("The DaemonSets this NVIDIA Driver owns", reading->daemonsets_incomplete));
  }
  view.blocks["conditions"] = status_conditions_json(body);
}

computed_list list_gpu_nodes(const view_context& context) {
  computed_list out;
  std::vector<object_ptr> nodes = context.store.with_label(core::node_kind, std::string(gpu_present_label), "true");
  std::sort(nodes.begin(), nodes.end(), [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
  std::string reason = incomplete_reason(context, core::node_kind);
  if (nodes.size() > gpu_nodes_cap) {
    nodes.resize(gpu_nodes_cap);
    reason = cut_reason(gpu_nodes_cap, "GPU nodes");
  }
  for (const object_ptr& node : nodes) {
    json row = link_json(context, *node);
    object_state state = core::node_state(*node, context);
    row["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
    row["gpu"] = gpu_block_json(read_gpu_node(node->body()));
    out.items.push_back(std::move(row));
  }
  out.incomplete = !reason.empty();
  out.incomplete_reason = reason;
  return out;
}

void extend_node_details(const cached_object& node, const view_context&, details_view& view) {
  if (!has_gpu_traces(node.body())) {
    view.blocks["gpu"] = nullptr;
    return;
  }
  gpu_node_reading reading = read_gpu_node(node.body());
  view.blocks["gpu"] = gpu_block_json(reading);
  if (reading.present_label == "false") {
    view.note(
        "nvidia.com/gpu.present is false: the operator saw the node's NVIDIA GPU go away and no longer "
        "deploys its components here.");
  }
}

}  // namespace sextant::gpu_operator
