#include "support/scoped_watch_section.hpp"

namespace sextant::testing {

section scoped_watch_section() {
  section gpu;
  gpu.id = "gpu-operator";
  gpu.group = "nvidia.com";
  gpu.resources.push_back(kind_resource("clusterpolicies", "Cluster Policies", scoped_policy_kind, scope::cluster));
  resource_def daemonsets = kind_resource("daemonsets", "DaemonSets", scoped_daemonset_kind, scope::namespaced);
  daemonsets.shown = false;
  daemonsets.namespace_from = namespace_source{scoped_policy_kind, {"status", "namespace"}};
  gpu.resources.push_back(daemonsets);
  return gpu;
}

served_kinds scoped_watch_served() {
  served_kinds served;
  served.add({scoped_policy_kind, "clusterpolicies", false, {"v1"}});
  served.add({scoped_daemonset_kind, "daemonsets", true, {"v1"}});
  return served;
}

}  // namespace sextant::testing
