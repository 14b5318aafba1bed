#pragma once
// One reading per Ray object, shared by its state, summary, details and problem rules. Every text
// a reading keeps is already masked: operator messages without URL credentials, the entrypoint
// and the Serve config with secret-looking values hidden.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::kuberay {

struct cluster_reading {
  object_state state;
  std::optional<time_point> since;
  bool replica_failure = false;  // the ReplicaFailure condition (v1.2+)
  bool old_failed = false;       // status.state failed or unhealthy (before v1.2)
  bool head_not_ready = false;
  bool conditions = false;  // written by a v1.2+ operator with the status-conditions gate on
  object_ptr head_pod;
  std::vector<object_ptr> pods;  // same namespace, the cluster label
  std::vector<std::string> notes;
};
cluster_reading read_cluster(const cached_object& cluster, const view_context& context);

struct job_reading {
  object_state state;
  std::optional<time_point> since;
  bool failed = false;
  std::string deployment_status;  // status.jobDeploymentStatus
  std::string job_status;         // status.jobStatus
  std::int64_t failed_attempts = 0;
  std::int64_t max_attempts = 1;  // backoffLimit + 1
  std::string entrypoint;         // masked, or "see YAML" (and a note says why)
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
  std::optional<time_point> since;
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
