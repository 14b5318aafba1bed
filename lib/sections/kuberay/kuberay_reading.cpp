#include "sections/kuberay/kuberay_reading.hpp"

#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "util/masking/secrets.hpp"
#include "util/time.hpp"

namespace sextant::kuberay {
namespace {

void check_type(const packed_value& body, std::initializer_list<path_step> path, bool (packed_value::*is)() const,
                const char* field, const char* type_words, std::vector<std::string>& notes) {
  const packed_value* value = find(body, path);
  if (value != nullptr && !value->is_null() && !(value->*is)()) {
    notes.push_back(std::string(field) + " is not " + type_words + "; it is read as absent.");
  }
}

object_state masked_state(std::string label, const packed_value* condition) {
  return {std::move(label), condition_reason(condition), masking::operator_text(condition_message(condition))};
}

}  // namespace

cluster_reading read_cluster(const cached_object& cluster, const view_context& context) {
  const packed_value& body = cluster.body();
  cluster_reading reading;
  check_type(body, {"status", "conditions"}, &packed_value::is_array, "status.conditions", "a list", reading.notes);
  check_type(body, {"status", "state"}, &packed_value::is_string, "status.state", "a string", reading.notes);
  check_type(body, {"spec", "workerGroupSpecs"}, &packed_value::is_array, "spec.workerGroupSpecs", "a list",
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
  const packed_value* provisioned = condition_of(body, "RayClusterProvisioned");
  const packed_value* head_ready = condition_of(body, "HeadPodReady");
  const packed_value* failure = condition_of(body, "ReplicaFailure");
  const packed_value* suspending = condition_of(body, "RayClusterSuspending");
  const packed_value* suspended = condition_of(body, "RayClusterSuspended");
  reading.conditions = provisioned != nullptr || head_ready != nullptr || failure != nullptr;

  if (condition_true(suspended) || (suspended == nullptr && state == "suspended")) {
    reading.state = suspended != nullptr ? masked_state("Suspended", suspended)
                                         : object_state{"Suspended", "", "status.state is suspended."};
    reading.since = since_of(suspended, body);
    return reading;
  }
  if (condition_true(suspending)) {
    reading.state = masked_state("Suspending", suspending);
    reading.since = transition_time(suspending);
    return reading;
  }
  if (condition_true(failure)) {
    reading.replica_failure = true;
    reading.state = masked_state("Failed", failure);
    reading.since = since_of(failure, body);
    return reading;
  }
  if (state == "failed" || state == "unhealthy") {
    reading.old_failed = true;
    reading.state = {"Failed", "", "status.state is " + state + " (written by KubeRay v1.1 and before)."};
    return reading;
  }
  if (reading.conditions) {
    if (!condition_true(provisioned)) {
      reading.state = provisioned != nullptr ? masked_state("Provisioning", provisioned)
                                             : object_state{"Provisioning", "", "The Ray pods are being created."};
      reading.since = since_of(provisioned, body);
      return reading;
    }
    if (head_ready != nullptr && !condition_true(head_ready)) {
      reading.head_not_ready = true;
      reading.state = masked_state("Head not ready", head_ready);
      reading.since = since_of(head_ready, body);
      return reading;
    }
    reading.state = {"Ready", condition_reason(head_ready),
                     std::to_string(get_int(body, {"status", "readyWorkerReplicas"}).value_or(0)) + " of " +
                         std::to_string(get_int(body, {"status", "desiredWorkerReplicas"}).value_or(0)) +
                         " workers ready."};
    reading.since = transition_time(head_ready);
    return reading;
  }
  // Before conditions: status.state is `ready` once and never reset, so the head pod tells more.
  if (state == "ready") {
    if (reading.head_pod && !pod_ready(*reading.head_pod)) {
      reading.head_not_ready = true;
      const packed_value* pod_condition = condition_of(reading.head_pod->body(), "Ready");
      reading.state = {"Head not ready", condition_reason(pod_condition),
                       "status.state still says ready (it is never reset), but the head pod " +
                           std::string(reading.head_pod->name) + " is not ready."};
      reading.since = since_of(pod_condition, reading.head_pod->body());
      return reading;
    }
    reading.state = {"Ready", "", "status.state is ready."};
    if (!reading.head_pod) {
      reading.notes.push_back("status.state is ready, which the operator never resets; no head pod is known.");
    }
    return reading;
  }
  reading.state = {"Provisioning", "", "The operator has not said the cluster is ready yet."};
  reading.since = created_at(body);
  return reading;
}

job_reading read_job(const cached_object& job, const view_context& context) {
  (void)context;
  const packed_value& body = job.body();
  job_reading reading;
  check_type(body, {"status", "failed"}, &packed_value::is_number, "status.failed", "a number", reading.notes);
  check_type(body, {"spec", "backoffLimit"}, &packed_value::is_number, "spec.backoffLimit", "a number", reading.notes);
  check_type(body, {"spec", "entrypoint"}, &packed_value::is_string, "spec.entrypoint", "a string", reading.notes);
  reading.deployment_status = string_or(body, {"status", "jobDeploymentStatus"});
  reading.job_status = string_or(body, {"status", "jobStatus"});
  reading.failed_attempts = std::max<std::int64_t>(0, get_int(body, {"status", "failed"}).value_or(0));
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
  auto end_time = [&body]() { return parse_rfc3339(string_or(body, {"status", "endTime"})); };
  const std::string& deployment = reading.deployment_status;
  const std::string attempts =
      std::to_string(reading.failed_attempts) + " of " + std::to_string(reading.max_attempts) + " attempts failed";
  if (deployment == "Suspended" || deployment == "Suspending") {
    reading.state = {"Suspended", deployment, deployment == "Suspending" ? "Being suspended." : "Suspended."};
    return reading;
  }
  if (deployment == "Retrying") {
    reading.state = {"Retrying", reason, attempts + "; the operator is starting a new attempt."};
    return reading;
  }
  if (deployment == "Failed" || deployment == "ValidationFailed") {
    bool never_retried = reason == "DeadlineExceeded" || reason == "JobStatusCheckTimeoutExceeded" ||
                         reason == "ValidationFailed" || deployment == "ValidationFailed";
    if (!never_retried && reading.failed_attempts < reading.max_attempts) {
      reading.state = {"Retrying", reason, attempts + "; it will be retried."};
      return reading;
    }
    reading.failed = true;
    reading.state = {"Failed", reason.empty() ? deployment : reason,
                     message.empty() ? attempts + "." : message + " (" + attempts + ")"};
    reading.since = end_time();
    if (!reading.since) {
      reading.since = created_at(body);
    }
    return reading;
  }
  if (deployment == "Complete") {
    if (reading.job_status == "STOPPED") {
      reading.state = {"Stopped", reason, message.empty() ? "The Ray job was stopped." : message};
    } else if (reading.job_status == "FAILED") {
      reading.failed = true;
      reading.state = {"Failed", reason, message.empty() ? "The Ray job failed." : message};
      reading.since = end_time();
    } else {
      reading.state = {"Succeeded", reason, message.empty() ? "The Ray job succeeded." : message};
    }
    return reading;
  }
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
    return reading;
  }
  reading.state = {"Pending", deployment,
                   deployment == "Initializing" ? "Waiting for the Ray Cluster to be ready." : "Not started yet."};
  reading.since = created_at(body);
  return reading;
}

service_reading read_service(const cached_object& service, const view_context& context) {
  (void)context;
  const packed_value& body = service.body();
  service_reading reading;
  check_type(body, {"status", "conditions"}, &packed_value::is_array, "status.conditions", "a list", reading.notes);
  check_type(body, {"status", "activeServiceStatus"}, &packed_value::is_object, "status.activeServiceStatus",
             "an object", reading.notes);
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
    reading.state = masked_state("Suspended", condition_true(suspended) ? suspended : ready);
    reading.since = since_of(condition_true(suspended) ? suspended : ready, body);
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
    const std::string message = masking::operator_text(condition_message(source));
    reading.state = {"Suspended", "Suspending",
                     "Being suspended: the operator is deleting its Ray Clusters and Services" +
                         (message.empty() ? std::string(".") : " (" + message + ").")};
    reading.since = since_of(source, body);
    return reading;
  }
  bool is_ready = false;
  if (ready != nullptr) {
    is_ready = condition_true(ready);
    reading.upgrading = condition_true(upgrade);
    reading.rollback = condition_true(rollback);
  } else {
    // Before v1.3: status.serviceStatus, and a pending cluster during an upgrade.
    const std::string status = string_or(body, {"status", "serviceStatus"});
    is_ready = status == "Running";
    reading.upgrading = !reading.pending_cluster.empty() && !reading.active_cluster.empty();
    if (!is_ready) {
      reading.not_ready = true;
      reading.state = {"Not ready", status,
                       status.empty() ? "Not running yet." : "status.serviceStatus is " + status + "."};
      reading.since = created_at(body);
      if (!reading.upgrading) {
        return reading;
      }
    }
  }
  if (ready != nullptr && !is_ready && (ready_reason == "ValidationFailed" || ready_reason == "InitializingTimeout")) {
    reading.failed = true;
    reading.state = masked_state("Failed", ready);
    reading.since = since_of(ready, body);
    return reading;
  }
  if (reading.rollback || reading.upgrading) {
    std::string serving = is_ready ? "the active Ray Cluster " + reading.active_cluster + " keeps serving"
                                   : "the active Ray Cluster is not serving";
    if (reading.rollback) {
      reading.state = {"Upgrading", "Rollback in progress",
                       "Rollback in progress: " + masking::operator_text(condition_message(rollback)) + " Meanwhile " +
                           serving + "."};
      reading.since = transition_time(rollback);
    } else {
      reading.state = {
          "Upgrading", condition_reason(upgrade),
          "Upgrading to the pending Ray Cluster " + reading.pending_cluster + "; meanwhile " + serving + "."};
      reading.since = transition_time(upgrade);
    }
    reading.not_ready = !is_ready;
    return reading;
  }
  if (ready != nullptr && !is_ready) {
    reading.not_ready = true;
    reading.state = masked_state("Not ready", ready);
    reading.since = since_of(ready, body);
    return reading;
  }
  if (ready != nullptr) {
    reading.state = masked_state("Ready", ready);
    reading.since = transition_time(ready);
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
