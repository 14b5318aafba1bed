#pragma once
// One reading per Ray object, shared by its state, summary, details and problem rules. Every text
// a reading keeps is already masked: operator messages without URL credentials, the entrypoint
// and the Serve config with secret-looking values hidden.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/common/since.hpp"
#include "sections/section.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::kuberay {

struct cluster_reading {
  object_state state;
  since_source since;
  bool replica_failure = false;  // the ReplicaFailure condition (v1.2+)
  bool old_failed = false;       // status.state failed or unhealthy (v1.1 and before)
  bool head_not_ready = false;   // provisioned or not: the head pod has not been ready since head_since
  object_state head;             // why the head is not ready: its reason and message, masked
  std::optional<time_point> head_since;
  std::string status_reason;  // status.reason (v1.1: the last pod reconcile error), URL credentials removed
  bool conditions = false;    // written by a v1.2+ operator with the status-conditions gate on
  object_ptr head_pod;
  std::vector<object_ptr> pods;  // same namespace, the cluster label
  std::vector<std::string> notes;
};
cluster_reading read_cluster(const cached_object& cluster, const view_context& context);

struct job_reading {
  object_state state;
  since_source since;
  bool failed = false;
  std::string deployment_status;                // status.jobDeploymentStatus
  std::string job_status;                       // status.jobStatus
  std::optional<std::int64_t> failed_attempts;  // status.failed (v1.2+); unknown before
  std::int64_t max_attempts = 1;                // backoffLimit + 1
  std::string entrypoint;                       // masked, or "see YAML" (and a note says why)
  std::string cluster_name;
  std::string submission_mode;
  std::vector<std::string> notes;
};
job_reading read_job(const cached_object& job, const view_context& context);

struct serve_app {
  std::string cluster_role;  // "active" or "pending"
  std::string name;
  std::string status;
  std::string message;              // URL credentials removed
  std::optional<time_point> since;  // healthLastUpdateTime (v1.2)
  bool unhealthy = false;
};

struct service_reading {
  object_state state;
  since_source since;
  bool failed = false;
  bool not_ready = false;
  bool upgrading = false;
  bool rollback = false;
  bool suspended = false;
  std::string active_cluster;
  std::string pending_cluster;
  std::vector<serve_app> apps;
  std::vector<std::string> notes;
};
service_reading read_service(const cached_object& service, const view_context& context);

// The Serve config as YAML, masked (masking::mask_yaml), or why it is not shown; nullopt when
// unset.
std::optional<masking::masked_text> masked_serve_config(const cached_object& service);

// Whether a pod's Ready condition is True (head and worker pods alike).
bool pod_ready(const cached_object& pod);

}  // namespace sextant::kuberay
