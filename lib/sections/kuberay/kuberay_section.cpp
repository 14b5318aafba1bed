#include "sections/kuberay/kuberay_section.hpp"

#include "sections/common/pod_logs.hpp"
#include "sections/core/core_section.hpp"

namespace sextant::kuberay {

section make_section() {
  section s;
  s.id = "kuberay";
  s.title = "KubeRay";
  s.group = std::string(ray_group);
  s.version_preference = {"v1"};

  resource_def clusters = kind_resource("rayclusters", "Ray Clusters", raycluster_kind, scope::namespaced);
  clusters.state = cluster_state;
  clusters.summarize = cluster_summary;
  clusters.details = cluster_details;
  // A Ray Cluster holds its groups' whole pod templates: keep what the views read.
  clusters.profile = ingest_profile::keeping(
      {"spec.suspend", "spec.enableInTreeAutoscaling", "spec.headGroupSpec.headService.metadata.name",
       "spec.workerGroupSpecs.groupName", "spec.workerGroupSpecs.replicas", "spec.workerGroupSpecs.minReplicas",
       "spec.workerGroupSpecs.maxReplicas", "spec.workerGroupSpecs.numOfHosts", "spec.workerGroupSpecs.suspend",
       "status"});
  clusters.joins = {core::pod_kind};  // its head and workers' pods: linked, and read for its state
  s.resources.push_back(std::move(clusters));

  resource_def jobs = kind_resource("rayjobs", "Ray Jobs", rayjob_kind, scope::namespaced);
  jobs.state = job_state;
  jobs.summarize = job_summary;
  jobs.details = job_details;
  jobs.profile = ingest_profile::keeping({"spec.entrypoint", "spec.submissionMode", "spec.backoffLimit", "spec.suspend",
                                          "spec.clusterSelector", "spec.shutdownAfterJobFinishes", "status"});
  s.resources.push_back(std::move(jobs));

  resource_def services = kind_resource("rayservices", "Ray Services", rayservice_kind, scope::namespaced);
  services.state = service_state;
  services.summarize = service_summary;
  services.details = service_details;
  services.profile = ingest_profile::keeping(
      {"spec.serveConfigV2", "spec.serveService.metadata.name", "spec.suspend", "spec.upgradeStrategy", "status"});
  s.resources.push_back(std::move(services));

  s.categories = {problem_category{std::string(problems_category), "KubeRay", true}};
  s.rules = problem_rules();

  // The details list a Ray Cluster's pods by the cluster label; core watches pods whole already.
  s.reads.push_back(kind_reads{core::pod_kind,
                               {"spec.nodeName", "status.phase", "status.conditions", "metadata.labels",
                                "status.containerStatuses.name", "status.containerStatuses.state"},
                               {std::string(cluster_label)}});

  // Logs, read from the API server as the client reads them (pods/log, get).
  std::vector<std::string> parameters = log_parameters;
  parameters.emplace_back("role");
  s.streams.push_back(streaming_route{"rayclusters", "logs", parameters, cluster_logs, {"", "pods/log"}});
  s.streams.push_back(streaming_route{"rayjobs", "logs", parameters, job_logs, {"", "pods/log"}});
  return s;
}

}  // namespace sextant::kuberay
