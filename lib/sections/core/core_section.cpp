#include "sections/core/core_section.hpp"

namespace sextant::core {

void pod_summary(const cached_object& pod, const view_context& context, json& summary);
void pod_details(const cached_object& pod, const view_context& context, details_view& view);
void node_details(const cached_object& node, const view_context& context, details_view& view);
void job_details(const cached_object& job, const view_context& context, details_view& view);

section make_section() {
  section s;
  s.id = "core";
  s.title = "Core";
  s.group = "";
  s.always_listed = true;
  s.version_preference = {"v1"};

  resource_def pods = kind_resource("pods", "Pods", pod_kind, scope::namespaced);
  pods.state = pod_state;
  pods.summarize = pod_summary;
  pods.details = pod_details;
  // Pods are the most numerous kind: keep what views read, not the whole spec or status (no
  // addresses, images or container IDs). Other sections add what they read (section::reads).
  pods.profile = ingest_profile::keeping(
      {"spec.nodeName", "spec.schedulingGates", "spec.containers.name", "spec.containers.resources",
       "spec.initContainers.name", "spec.initContainers.resources", "spec.priorityClassName", "status.phase",
       "status.reason", "status.message", "status.conditions", "status.containerStatuses.name",
       "status.containerStatuses.ready", "status.containerStatuses.restartCount", "status.containerStatuses.state",
       "status.initContainerStatuses.name", "status.initContainerStatuses.ready",
       "status.initContainerStatuses.restartCount", "status.initContainerStatuses.state"});
  pods.profile->indexed_labels = {"batch.kubernetes.io/job-name"};
  s.resources.push_back(std::move(pods));

  resource_def nodes = kind_resource("nodes", "Nodes", node_kind, scope::cluster);
  nodes.state = node_state;
  nodes.details = node_details;
  nodes.profile = ingest_profile::keeping({"spec.unschedulable", "spec.taints", "status.capacity", "status.allocatable",
                                           "status.conditions", "status.nodeInfo"});
  s.resources.push_back(std::move(nodes));

  resource_def jobs = kind_resource("jobs", "Jobs", job_kind, scope::namespaced);
  jobs.state = job_state;
  jobs.details = job_details;
  jobs.profile =
      ingest_profile::keeping({"spec.suspend", "spec.completions", "spec.parallelism", "spec.backoffLimit", "status"});
  jobs.joins = {pod_kind};  // its pods, linked
  s.resources.push_back(std::move(jobs));
  return s;
}

}  // namespace sextant::core
