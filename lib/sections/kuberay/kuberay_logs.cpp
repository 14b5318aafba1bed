// The logs routes: a Ray Cluster's head or worker logs, a Ray Job's submitter logs. Pure: from the
// cache they pick the pods and containers to read and say plainly what is missing; the daemon
// streams what they return.
#include <algorithm>

#include "sections/common/lists.hpp"
#include "sections/common/pod_logs.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kuberay/kuberay_reading.hpp"
#include "sections/kuberay/kuberay_section.hpp"

namespace sextant::kuberay {
namespace {

// KubeRay's container names: the Ray container is the first of a Ray pod, the submitter's is
// `ray-job-submitter` (a K8sJobMode Job's pod, or a sidecar of the head pod in SidecarMode).
constexpr std::string_view submitter_container = "ray-job-submitter";

stream_answer refused(int status, std::string reason, std::string message) {
  stream_answer answer;
  answer.status = status;
  answer.reason = std::move(reason);
  answer.message = std::move(message);
  return answer;
}

stream_answer with_plan(pod_log_plan plan) {
  stream_answer answer;
  answer.logs = std::move(plan);
  return answer;
}

// No pod to read: 404 when the pod list is complete, 503 when it may lack them.
stream_answer no_pods(const view_context& context, const std::string& what) {
  std::string reason = incomplete_reason(context, core::pod_kind);
  if (!reason.empty()) {
    return refused(503, "Unavailable",
                   "no " + what + " is in the cache; " + may_be_incomplete("the cached Pods", reason));
  }
  return refused(404, "NotFound", "no " + what + " exists.");
}

pod_log_source source_of(const cached_object& pod, std::string_view container) {
  return pod_log_source{std::string(pod.namespace_), std::string(pod.name), container_of(pod, container), {}};
}

}  // namespace

stream_answer cluster_logs(const stream_request& request, const view_context& context) {
  auto role = request.query.find("role");
  if (role == request.query.end() || (role->second != "head" && role->second != "workers")) {
    return refused(400, "BadRequest", "name the logs to read: ?role=head or ?role=workers");
  }
  log_options options = parse_log_options(request.query);
  if (!options.error.empty()) {
    return refused(400, "BadRequest", options.error);
  }
  object_ptr cluster = context.store.get(raycluster_kind, request.namespace_, request.name);
  const std::string named = "Ray Cluster " + request.namespace_ + "/" + request.name;
  if (!cluster) {
    return refused(404, "NotFound", "RayCluster " + request.namespace_ + "/" + request.name + " is not in the cache");
  }
  cluster_reading reading = read_cluster(*cluster, context);
  if (role->second == "head") {
    if (!reading.head_pod) {
      return no_pods(context, "head pod of " + named);
    }
    return with_plan(single_log_plan(source_of(*reading.head_pod, {}), options));
  }
  std::vector<pod_log_source> workers;
  for (const object_ptr& pod : reading.pods) {  // by name
    if (string_or(pod->body(), {"metadata", "labels", node_type_label}) == "worker") {
      workers.push_back(source_of(*pod, {}));
    }
  }
  if (workers.empty()) {
    return no_pods(context, "worker pod of " + named);
  }
  return with_plan(merged_log_plan(std::move(workers), options, "worker pods"));
}

stream_answer job_logs(const stream_request& request, const view_context& context) {
  auto role = request.query.find("role");
  if (role == request.query.end() || role->second != "submitter") {
    return refused(400, "BadRequest", "name the logs to read: ?role=submitter");
  }
  log_options options = parse_log_options(request.query);
  if (!options.error.empty()) {
    return refused(400, "BadRequest", options.error);
  }
  object_ptr job = context.store.get(rayjob_kind, request.namespace_, request.name);
  const std::string named = "Ray Job " + request.namespace_ + "/" + request.name;
  if (!job) {
    return refused(404, "NotFound", "RayJob " + request.namespace_ + "/" + request.name + " is not in the cache");
  }
  job_reading reading = read_job(*job, context);
  if (reading.submission_mode == "SidecarMode") {
    // The submitter runs beside Ray in the head pod of the job's cluster.
    object_ptr head;
    if (!reading.cluster_name.empty()) {
      for (const object_ptr& pod :
           context.store.with_label(core::pod_kind, std::string(cluster_label), reading.cluster_name)) {
        if (pod->namespace_ == job->namespace_ &&
            string_or(pod->body(), {"metadata", "labels", node_type_label}) == "head") {
          head = pod;
        }
      }
    }
    if (!head) {
      return no_pods(context, "head pod (whose sidecar submits " + named + ")");
    }
    if (container_of(*head, submitter_container) != submitter_container) {
      return refused(404, "NotFound",
                     "the head pod " + std::string(head->name) + " of " + named + " has no " +
                         std::string(submitter_container) + " container.");
    }
    return with_plan(single_log_plan(source_of(*head, submitter_container), options));
  }
  if (reading.submission_mode != "K8sJobMode") {
    return refused(404, "NotFound",
                   named + " is submitted in " + reading.submission_mode + ": it has no submitter pods.");
  }
  // K8sJobMode: the submitter is the Job of the Ray Job's name; its pods carry the Job's label.
  std::vector<pod_log_source> submitters;
  std::vector<object_ptr> pods = context.store.with_label(core::pod_kind, "batch.kubernetes.io/job-name", job->name);
  std::sort(pods.begin(), pods.end(), [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
  for (const object_ptr& pod : pods) {
    if (pod->namespace_ == job->namespace_) {
      submitters.push_back(source_of(*pod, submitter_container));
    }
  }
  if (submitters.empty()) {
    return no_pods(context, "submitter pod of " + named);
  }
  return with_plan(merged_log_plan(std::move(submitters), options, "submitter pods"));
}

}  // namespace sextant::kuberay
