#include "sections/gpu_operator/gpu_operator_section.hpp"

#include "sections/core/core_section.hpp"

namespace sextant::gpu_operator {

section make_section() {
  section s;
  s.id = "gpu-operator";
  s.title = "NVIDIA GPU Operator";
  s.group = std::string(gpu_operator_group);
  s.version_preference = {"v1", "v1alpha1"};

  resource_def policies = kind_resource("clusterpolicies", "Cluster Policies", cluster_policy_kind, scope::cluster);
  policies.state = policy_state;
  policies.summarize = policy_summary;
  policies.details = policy_details;
  // Each component's rollout is its DaemonSet's status, and since when it is not ready comes from
  // the DaemonSet's pods' Ready conditions.
  policies.made_of = {daemonset_kind, core::pod_kind};
  s.resources.push_back(std::move(policies));

  resource_def drivers = kind_resource("nvidiadrivers", "NVIDIA Drivers", nvidia_driver_kind, scope::cluster);
  drivers.state = driver_state;
  drivers.summarize = driver_summary;
  drivers.details = driver_details;
  drivers.made_of = {daemonset_kind};
  s.resources.push_back(std::move(drivers));

  resource_def gpunodes;
  gpunodes.id = "gpunodes";
  gpunodes.title = "GPU nodes";
  gpunodes.type = kind_key{std::string(gpu_operator_group), ""};
  gpunodes.namespaced = false;
  gpunodes.list_computed = list_gpu_nodes;
  gpunodes.made_of = {core::node_kind};  // each row is a Node's GPU labels
  s.resources.push_back(std::move(gpunodes));

  // The operator's DaemonSets, one per component, shown inside the components and drivers: no
  // page of their own. They live in the namespace the Cluster Policy names, and only that one is
  // watched. Their rollout is all the views read.
  resource_def daemonsets = kind_resource("daemonsets", "DaemonSets", daemonset_kind, scope::namespaced);
  daemonsets.shown = false;
  daemonsets.namespace_from = namespace_source{cluster_policy_kind, {"status", "namespace"}};
  daemonsets.profile = ingest_profile::keeping({"status"});
  s.resources.push_back(std::move(daemonsets));

  s.categories = {problem_category{std::string(problems_category), "NVIDIA GPU Operator", true}};
  s.rules = problem_rules();

  // GPU nodes are found by their nvidia.com/gpu.present label; core keeps labels, capacity and
  // allocatable already.
  s.reads.push_back(kind_reads{core::node_kind, {}, {std::string(gpu_present_label)}});
  s.extensions.push_back(details_extension{core::node_kind, extend_node_details});
  return s;
}

}  // namespace sextant::gpu_operator
