// Over 400 lines because it holds the one reading of each Ray kind (cluster, job, service), which
// share the head's and the pods' helpers; a file per kind is the split when one of them grows.
#include "sections/kuberay/kuberay_reading.hpp"

#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/common/field_types.hpp"
#include "sections/common/words.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "util/masking/secrets.hpp"
#include "util/time.hpp"

namespace sextant::kuberay {
namespace {

constexpr std::string_view no_end_time =
    "The Ray Job does not record when it failed (status.endTime is not set): since is when this daemon first saw it "
    "so.";

// Since when the head has not been ready: the cluster's HeadPodReady condition (v1.2+, the
// operator's copy of the head pod's Ready) and the head pod's own Ready condition each say so
// from a time to now, so the head has not been ready since the earlier of the two. The pod's
// matters where the conditions are younger than it (an operator upgraded from before them).
// HeadPodReady's never counts from before a resume: it keeps the time it turned False when the
// head was deleted for the suspension, and a suspended cluster has no head to be ready.
std::optional<time_point> head_not_ready_since(const packed_value& cluster, const packed_value* head_ready,
                                               const object_ptr& head_pod) {
  std::optional<time_point> since;
  if (head_ready != nullptr && !condition_true(head_ready)) {
    since = since_of(head_ready, cluster);
    const packed_value* suspended = condition_of(cluster, "RayClusterSuspended");
    std::optional<time_point> resumed =
        suspended != nullptr && !condition_true(suspended) ? transition_time(suspended) : std::nullopt;
    if (since && resumed && *since < *resumed) {
      since = resumed;
    }
  }
  if (head_pod && !pod_ready(*head_pod)) {
    std::optional<time_point> pod_since = since_of(condition_of(head_pod->body(), "Ready"), head_pod->body());
    if (pod_since && (!since || *pod_since < *since)) {
      since = pod_since;
    }
  }
  return since;
}

// Why the head is not ready, in the words of HeadPodReady, else in those a v1.3+ operator would
// write from the head pod: its Ready condition, ContainersNotReady replaced by the first waiting
// or terminated container's reason (FindHeadPodReadyCondition, firstNotReadyContainerStatus:
// controllers/ray/utils/util.go:84-138 at v1.7.0).
object_state head_words(const packed_value* head_ready, const object_ptr& head_pod) {
  if (head_ready != nullptr && !condition_true(head_ready)) {
    return condition_state("Head not ready", head_ready);
  }
  if (!head_pod) {
    return {"Head not ready", "", ""};
  }
  const packed_value* pod_condition = condition_of(head_pod->body(), "Ready");
  std::string reason = condition_reason(pod_condition);
  std::string detail = condition_message(pod_condition);
  if (reason == "ContainersNotReady") {
    for (const packed_value& container : array_or_empty(head_pod->body(), {"status", "containerStatuses"})) {
      const packed_value* state = find(container, {"state", "waiting"});
      state = state != nullptr && state->is_object() ? state : find(container, {"state", "terminated"});
      if (state != nullptr && state->is_object()) {
        reason = string_or(*state, {"reason"});
        detail += (detail.empty() ? "" : "; ") + string_or(container, {"name"}) + ": " + string_or(*state, {"message"});
        break;
      }
    }
  }
  const std::string shown = masking::operator_text(detail);
  return {"Head not ready", reason,
          "The head pod " + std::string(head_pod->name) + " is not ready" + (shown.empty() ? "." : ": " + shown)};
}

}  // namespace

cluster_reading read_cluster(const cached_object& cluster, const view_context& context) {
  const packed_value& body = cluster.body();
  cluster_reading reading;
  note_wrong_types(body,
                   {{"status.conditions", field_type::array},
                    {"status.state", field_type::string},
                    {"status.reason", field_type::string},
                    {"spec.workerGroupSpecs", field_type::array}},
                   reading.notes);

  std::vector<object_ptr> labelled = context.store.with_label(core::pod_kind, std::string(cluster_label), cluster.name);
  for (const object_ptr& pod : labelled) {
    if (pod->namespace_ == cluster.namespace_) {
      reading.pods.push_back(pod);
      if (string_or(pod->body(), {"metadata", "labels", node_type_label}) == "head" && !reading.head_pod) {
        reading.head_pod = pod;
      }
    }
  }
  std::sort(reading.pods.begin(), reading.pods.end(),
            [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });

  const std::string state = string_or(body, {"status", "state"});
  reading.status_reason = masking::operator_text(string_or(body, {"status", "reason"}));
  const packed_value* provisioned = condition_of(body, "RayClusterProvisioned");
  const packed_value* head_ready = condition_of(body, "HeadPodReady");
  const packed_value* failure = condition_of(body, "ReplicaFailure");
  const packed_value* suspending = condition_of(body, "RayClusterSuspending");
  const packed_value* suspended = condition_of(body, "RayClusterSuspended");
  reading.conditions = provisioned != nullptr || head_ready != nullptr || failure != nullptr;
  const bool old_failed_state = state == "failed" || state == "unhealthy";

  if (condition_true(suspended) || (suspended == nullptr && state == "suspended")) {
    reading.state = suspended != nullptr ? condition_state("Suspended", suspended)
                                         : object_state{"Suspended", "", "status.state is suspended."};
    reading.since.since = since_of(suspended, body);
    return reading;
  }
  if (condition_true(suspending)) {
    reading.state = condition_state("Suspending", suspending);
    reading.since.since = transition_time(suspending);
    return reading;
  }
  if (condition_true(failure)) {
    reading.replica_failure = true;
    reading.state = condition_state("Failed", failure);
    reading.since.since = since_of(failure, body);
    return reading;
  }
  // KubeRay v1.0-v1.1 wrote `failed` on any reconcile error (and the error in status.reason when
  // creating or deleting pods failed) and `unhealthy` for invalid head rayStartParams
  // (ray-operator/controllers/ray/raycluster_controller.go:306-357,1274-1276 at v1.1.0). From
  // v1.2 nothing writes either, and nothing resets them before the cluster is next ready: beside
  // the conditions of a v1.2+ operator they are history.
  if (old_failed_state && !reading.conditions) {
    reading.old_failed = true;
    std::string message = "status.state is " + state + " (written by KubeRay v1.1 and before)";
    if (!reading.status_reason.empty()) {
      message += ": " + reading.status_reason;
    }
    reading.state = {"Failed", "", as_sentence(message)};
    reading.since.first_sighting = "KubeRay v1.1 does not record when it wrote status.state " + state +
                                   ": since is when this daemon first saw it so.";
    return reading;
  }
  if (old_failed_state) {
    reading.notes.push_back("status.state is " + state +
                            ", left by KubeRay v1.1 or before: the operator that writes this cluster's conditions "
                            "(v1.2 or later) never writes it and does not reset it until the cluster is ready "
                            "again, so the conditions tell the state.");
  }
  if (!reading.status_reason.empty() && !reading.old_failed) {
    reading.notes.push_back(
        "status.reason holds an earlier reconcile error, which KubeRay before v1.3 never "
        "clears: " +
        reading.status_reason);
  }

  reading.head_since = head_not_ready_since(body, head_ready, reading.head_pod);
  if (reading.conditions) {
    const bool head_down = head_ready != nullptr && !condition_true(head_ready);
    if (head_down) {
      reading.head_not_ready = true;
      reading.head = head_words(head_ready, reading.head_pod);
    }
    if (!condition_true(provisioned)) {
      // Never provisioned (or resumed): Provisioning, whatever keeps it so. A head that has not
      // become ready (an image that cannot be pulled, a crash loop) is the spec's "head not
      // ready" problem all the same: HeadPodReady tells it before the cluster was ever ready.
      reading.state = provisioned != nullptr ? condition_state("Provisioning", provisioned)
                                             : object_state{"Provisioning", "", "The Ray pods are being created."};
      if (head_down) {
        add_sentence(
            reading.state.message,
            "The head is not ready" + (reading.head.reason.empty() ? "" : " (" + reading.head.reason + ")") + ".");
      }
      reading.since.since = since_of(provisioned, body);
      return reading;
    }
    if (head_down) {
      reading.state = reading.head;
      reading.since.since = reading.head_since;
      return reading;
    }
    reading.state = {"Ready", condition_reason(head_ready),
                     std::to_string(get_int(body, {"status", "readyWorkerReplicas"}).value_or(0)) + " of " +
                         std::to_string(get_int(body, {"status", "desiredWorkerReplicas"}).value_or(0)) +
                         " workers ready."};
    reading.since.since = transition_time(head_ready);
    return reading;
  }
  // Before conditions: status.state is `ready` once and never reset, and the head pod's own Ready
  // condition is the only word on the head.
  const bool head_down = reading.head_pod && !pod_ready(*reading.head_pod);
  if (head_down) {
    reading.head_not_ready = true;
    reading.head = head_words(nullptr, reading.head_pod);
  }
  if (state == "ready") {
    if (head_down) {
      reading.state = {"Head not ready", reading.head.reason,
                       "status.state still says ready (it is never reset), but the head pod " +
                           std::string(reading.head_pod->name) + " is not ready."};
      reading.since.since = reading.head_since;
      return reading;
    }
    reading.state = {"Ready", "", "status.state is ready."};
    if (!reading.head_pod) {
      reading.notes.push_back("status.state is ready, which the operator never resets; no head pod is known.");
    }
    return reading;
  }
  reading.state = {"Provisioning", "", "The operator has not said the cluster is ready yet."};
  if (head_down) {
    add_sentence(reading.state.message, reading.head.message);
  }
  reading.since.since = created_at(body);
  return reading;
}

job_reading read_job(const cached_object& job, const view_context& context) {
  (void)context;
  const packed_value& body = job.body();
  job_reading reading;
  note_wrong_types(body,
                   {{"status.failed", field_type::number},
                    {"spec.backoffLimit", field_type::number},
                    {"spec.entrypoint", field_type::string}},
                   reading.notes);
  reading.deployment_status = string_or(body, {"status", "jobDeploymentStatus"});
  reading.job_status = string_or(body, {"status", "jobStatus"});
  if (std::optional<std::int64_t> failed = get_int(body, {"status", "failed"})) {
    reading.failed_attempts = std::max<std::int64_t>(0, *failed);
  }
  reading.max_attempts = std::max<std::int64_t>(0, get_int(body, {"spec", "backoffLimit"}).value_or(0)) + 1;
  reading.cluster_name = string_or(body, {"status", "rayClusterName"});
  reading.submission_mode = string_or(body, {"spec", "submissionMode"}, "K8sJobMode");
  std::string entrypoint = string_or(body, {"spec", "entrypoint"});
  if (!entrypoint.empty()) {
    masking::masked_text masked = masking::mask_command_line(entrypoint);
    reading.entrypoint = masking::shown_or_see_yaml(masked);
    if (std::string note = masking::masking_note("The entrypoint", masked); !note.empty()) {
      reading.notes.push_back(std::move(note));
    }
  }

  const std::string reason = string_or(body, {"status", "reason"});
  const std::string message = masking::operator_text(string_or(body, {"status", "message"}));
  const std::string& deployment = reading.deployment_status;
  // status.failed exists from v1.2 (with retries); a v1.1 job makes one attempt and counts none.
  const std::string attempts = reading.failed_attempts ? std::to_string(*reading.failed_attempts) + " of " +
                                                             std::to_string(reading.max_attempts) + " attempts failed"
                                                       : std::string();
  if (deployment == "Suspended" || deployment == "Suspending") {
    reading.state = {"Suspended", deployment, deployment == "Suspending" ? "Being suspended." : "Suspended."};
    return reading;
  }
  if (deployment == "Retrying") {
    reading.state = {"Retrying", reason,
                     (attempts.empty() ? "An attempt failed" : attempts) + "; the operator is starting a new attempt."};
    return reading;
  }
  if (deployment == "Failed" || deployment == "ValidationFailed") {
    // A stored Failed is final. KubeRay decides on a retry in the reconcile that fails the job
    // and writes Retrying instead (checkBackoffLimitAndUpdateStatusIfNeeded, just before the
    // status update: ray-operator/controllers/ray/rayjob_controller.go:452-456,518-557 at
    // v1.7.0), and once stored, Failed is only cleaned up (:420); v1.1 has no retries at all.
    // A count below the limit means the limit was raised after the job failed.
    reading.failed = true;
    std::string words = message.empty() ? attempts : message + (attempts.empty() ? "" : " (" + attempts + ")");
    reading.state = {"Failed", reason.empty() ? deployment : reason, words.empty() ? "The Ray job failed." : words};
    const bool never_retried = reason == "DeadlineExceeded" || reason == "JobStatusCheckTimeoutExceeded";
    if (reading.failed_attempts && *reading.failed_attempts < reading.max_attempts && deployment == "Failed" &&
        !never_retried) {
      reading.notes.push_back("spec.backoffLimit allows " + std::to_string(reading.max_attempts) +
                              " attempts, but this failure is final: KubeRay writes Retrying instead of Failed "
                              "when it will retry, so the limit was raised after the job failed.");
    }
    // endTime is written with Failed (v1.1 and later); ValidationFailed has none.
    reading.since.since = parse_rfc3339(string_or(body, {"status", "endTime"}));
    if (!reading.since.since) {
      reading.since.first_sighting = std::string(no_end_time);
    }
    return reading;
  }
  if (deployment == "Complete") {
    const std::optional<time_point> ended = parse_rfc3339(string_or(body, {"status", "endTime"}));
    if (reading.job_status == "STOPPED") {
      reading.state = {"Stopped", reason, message.empty() ? "The Ray job was stopped." : message};
    } else if (reading.job_status == "FAILED") {
      reading.failed = true;
      reading.state = {"Failed", reason, message.empty() ? "The Ray job failed." : message};
      if (!ended) {
        reading.since.first_sighting = std::string(no_end_time);
      }
    } else {
      reading.state = {"Succeeded", reason, message.empty() ? "The Ray job succeeded." : message};
    }
    reading.since.since = ended;
    return reading;
  }
  // An attempt begins at status.startTime (written on Initializing, again for every retry); the
  // creation time is only the first attempt's.
  auto attempt_start = [&body, &reading]() -> std::optional<time_point> {
    if (std::optional<time_point> started = parse_rfc3339(string_or(body, {"status", "startTime"}))) {
      return started;
    }
    return reading.failed_attempts.value_or(0) > 0 ? std::nullopt : created_at(body);
  };
  if (deployment == "Running") {
    if (reading.job_status == "PENDING" || reading.job_status.empty()) {
      reading.state = {"Pending", "", "Submitted; the Ray job has not started yet."};
    } else {
      reading.state = {"Running", reading.job_status, message};
    }
    return reading;
  }
  if (deployment == "Waiting") {
    reading.state = {"Pending", "Waiting", "Interactive mode: waiting for spec.jobId to be set."};
    reading.since.since = attempt_start();
    return reading;
  }
  // KubeRay v1.0's steps, gone from v1.1 (apis/ray/v1/rayjob_types.go:36-45 at v1.0.0), each
  // retried: only Complete ended its reconciles (rayjob_controller.go:124-128,219-253 at v1.0.0).
  // FailedToGetJobStatus is a job it submitted and could not ask about: the last status read tells.
  if (deployment == "FailedToGetJobStatus") {
    const bool running = reading.job_status == "RUNNING";
    reading.state = {running ? "Running" : "Pending", deployment,
                     "KubeRay v1.0 could not read the job's status from the Ray dashboard and retries" +
                         (reading.job_status.empty() ? std::string(".")
                                                     : "; the last status it read is " + reading.job_status + ".")};
    return reading;
  }
  if (deployment == "FailedToGetOrCreateRayCluster" || deployment == "WaitForDashboard" ||
      deployment == "WaitForDashboardReady" || deployment == "WaitForK8sJob" || deployment == "FailedJobDeploy") {
    reading.state = {
        "Pending", deployment,
        "status.jobDeploymentStatus is " + deployment + ", a step KubeRay v1.0 retries: the job has not started yet."};
    reading.since.since = attempt_start();
    return reading;
  }
  reading.state = {"Pending", deployment,
                   deployment == "Initializing" ? "Waiting for the Ray Cluster to be ready." : "Not started yet."};
  reading.since.since = attempt_start();
  return reading;
}

service_reading read_service(const cached_object& service, const view_context& context) {
  (void)context;
  const packed_value& body = service.body();
  service_reading reading;
  note_wrong_types(body, {{"status.conditions", field_type::array}, {"status.activeServiceStatus", field_type::object}},
                   reading.notes);
  reading.active_cluster = string_or(body, {"status", "activeServiceStatus", "rayClusterName"});
  reading.pending_cluster = string_or(body, {"status", "pendingServiceStatus", "rayClusterName"});
  for (const char* role : {"active", "pending"}) {
    const packed_value* statuses =
        find(body, {"status", std::string(role) == "active" ? "activeServiceStatus" : "pendingServiceStatus",
                    "applicationStatuses"});
    if (statuses == nullptr || !statuses->is_object()) {
      continue;
    }
    for (const auto& [name, app] : statuses->items()) {
      serve_app out;
      out.cluster_role = role;
      out.name = std::string(name);
      out.status = string_or(app, {"status"});
      out.message = masking::operator_text(string_or(app, {"message"}));
      out.since = parse_rfc3339(string_or(app, {"healthLastUpdateTime"}));
      out.unhealthy = out.status == "UNHEALTHY" || out.status == "DEPLOY_FAILED";
      reading.apps.push_back(std::move(out));
    }
  }

  const packed_value* ready = condition_of(body, "Ready");
  const packed_value* upgrade = condition_of(body, "UpgradeInProgress");
  const packed_value* rollback = condition_of(body, "RollbackInProgress");
  const packed_value* suspended = condition_of(body, "Suspended");
  const packed_value* suspending = condition_of(body, "Suspending");
  const std::string ready_reason = condition_reason(ready);
  if (condition_true(suspended) || ready_reason == "SuspendComplete") {
    reading.suspended = true;
    reading.state = condition_state("Suspended", condition_true(suspended) ? suspended : ready);
    reading.since.since = since_of(condition_true(suspended) ? suspended : ready, body);
    return reading;
  }
  // v1.7's Suspending (Ready False with SuspendInProgress beside it): the operator is deleting the
  // service's Ray Clusters and Services, and once it has begun it finishes even if spec.suspend is
  // turned off again. The spec's Ray Service states have no "Suspending"; it is shown as Suspended
  // with the reason Suspending, as a Ray Job's Suspending is: it no longer serves because it was
  // asked to stop, which "Not ready" (and its problem after 10 minutes) would misreport as a fault,
  // and "Upgrading" or "Ready" would claim a cluster that is being deleted.
  if (condition_true(suspending) || ready_reason == "SuspendInProgress") {
    const packed_value* source = condition_true(suspending) ? suspending : ready;
    reading.suspended = true;
    const std::string message = masked_condition_message(source);
    reading.state = {"Suspended", "Suspending",
                     "Being suspended: the operator is deleting its Ray Clusters and Services" +
                         (message.empty() ? std::string(".") : " (" + message + ").")};
    reading.since.since = since_of(source, body);
    return reading;
  }
  bool is_ready = false;
  if (ready != nullptr) {
    is_ready = condition_true(ready);
    reading.upgrading = condition_true(upgrade);
    reading.rollback = condition_true(rollback);
  } else {
    // Before v1.3: status.serviceStatus, and a pending cluster during an upgrade. Restarting also
    // has a pending cluster, the unhealthy active one's replacement: that is no upgrade.
    const std::string status = string_or(body, {"status", "serviceStatus"});
    is_ready = status == "Running";
    reading.upgrading = !reading.pending_cluster.empty() && !reading.active_cluster.empty() && status != "Restarting";
    if (!is_ready) {
      // Nothing before v1.3 records when a service stopped running (status.lastUpdateTime is the
      // last write of any kind: ray-operator/apis/ray/v1/rayservice_types.go:68-71 at v1.2.2), and
      // a long-lived service that has just begun restarting must not count from its creation.
      reading.not_ready = true;
      reading.state = {"Not ready", status,
                       status.empty() ? "Not running yet." : "status.serviceStatus is " + status + "."};
      if (status == "Restarting" && !reading.pending_cluster.empty() && !reading.active_cluster.empty()) {
        reading.state.message += " The operator replaces the unhealthy Ray Cluster " + reading.active_cluster +
                                 " with " + reading.pending_cluster + ".";
      }
      reading.since.first_sighting =
          "KubeRay before v1.3 does not record since when a Ray Service is not running: since is when this "
          "daemon first saw it so.";
      if (!reading.upgrading) {
        return reading;
      }
    }
  }
  if (ready != nullptr && !is_ready && (ready_reason == "ValidationFailed" || ready_reason == "InitializingTimeout")) {
    reading.failed = true;
    reading.state = condition_state("Failed", ready);
    reading.since.since = since_of(ready, body);
    return reading;
  }
  if (reading.rollback || reading.upgrading) {
    std::string serving = is_ready ? "the active Ray Cluster " + reading.active_cluster + " keeps serving"
                                   : "the active Ray Cluster is not serving";
    if (reading.rollback) {
      reading.state = {"Upgrading", "Rollback in progress",
                       "Rollback in progress: " + masked_condition_message(rollback) + " Meanwhile " + serving + "."};
      reading.since.since = transition_time(rollback);
    } else {
      reading.state = {
          "Upgrading", condition_reason(upgrade),
          "Upgrading to the pending Ray Cluster " + reading.pending_cluster + "; meanwhile " + serving + "."};
      reading.since.since = transition_time(upgrade);
    }
    reading.not_ready = !is_ready;
    return reading;
  }
  if (ready != nullptr && !is_ready) {
    reading.not_ready = true;
    reading.state = condition_state("Not ready", ready);
    reading.since.since = since_of(ready, body);
    return reading;
  }
  if (ready != nullptr) {
    reading.state = condition_state("Ready", ready);
    reading.since.since = transition_time(ready);
  } else {
    reading.state = {"Ready", "Running", "status.serviceStatus is Running."};
  }
  return reading;
}

std::optional<masking::masked_text> masked_serve_config(const cached_object& service) {
  const packed_value* config = find(service.body(), {"spec", "serveConfigV2"});
  if (config == nullptr || config->is_null()) {
    return std::nullopt;
  }
  if (!config->is_string()) {
    return masking::masked_text{std::nullopt, "spec.serveConfigV2 is not a string", false};
  }
  return masking::mask_yaml(config->string_view());
}

bool pod_ready(const cached_object& pod) {
  return condition_true(condition_of(pod.body(), "Ready"));
}

}  // namespace sextant::kuberay
