// State, summary and details of Ray Clusters, Ray Jobs and Ray Services, each rendered from one
// reading. Texts shown are masked (util/masking): the readings mask what they keep, condition
// blocks are masked by sections/common/conditions, and the API masks every view again.
#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/read_once.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kuberay/kuberay_reading.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::kuberay {
namespace {

json state_json(const object_state& state) {
  return {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
}

// How many workers a group may have: a fixed count, a range, or "at least N, no upper limit".
std::string group_range(const packed_value& group, bool autoscaling) {
  std::int64_t replicas = get_int(group, {"replicas"}).value_or(0);
  std::int64_t min = get_int(group, {"minReplicas"}).value_or(0);
  std::int64_t max = get_int(group, {"maxReplicas"}).value_or(no_upper_limit);
  std::int64_t hosts = std::max<std::int64_t>(1, get_int(group, {"numOfHosts"}).value_or(1));
  std::string per_host = hosts > 1 ? " (x" + std::to_string(hosts) + " hosts)" : "";
  if (!autoscaling) {
    return std::to_string(replicas) + per_host;
  }
  if (max >= no_upper_limit) {
    return "at least " + std::to_string(min) + ", no upper limit" + per_host;
  }
  return std::to_string(min) + " to " + std::to_string(max) + per_host;
}

json worker_groups_json(const packed_value& body, const cluster_reading& reading) {
  bool autoscaling = get_bool(body, {"spec", "enableInTreeAutoscaling"}).value_or(false);
  json out = json::array();
  for (const packed_value& group : array_or_empty(body, {"spec", "workerGroupSpecs"})) {
    std::string name = string_or(group, {"groupName"});
    std::int64_t pods = 0;
    std::int64_t ready = 0;
    for (const object_ptr& pod : reading.pods) {
      const packed_value& labels = pod->body()["metadata"]["labels"];
      if (string_or(labels, {node_type_label}) == "worker" && string_or(labels, {group_label}) == name) {
        ++pods;
        ready += pod_ready(*pod) ? 1 : 0;
      }
    }
    out.push_back({{"name", name},
                   {"replicas", or_null(get_int(group, {"replicas"}))},
                   {"range", group_range(group, autoscaling)},
                   {"pods", pods},
                   {"readyPods", ready}});
  }
  return out;
}

std::string head_service_name(const cached_object& cluster) {
  std::string name = string_or(cluster.body(), {"status", "head", "serviceName"});
  if (name.empty()) {
    name = string_or(cluster.body(), {"spec", "headGroupSpec", "headService", "metadata", "name"});
  }
  return name.empty() ? std::string(cluster.name) + "-head-svc" : name;
}

json apps_json(const service_reading& reading) {
  json out = json::array();
  for (const serve_app& app : reading.apps) {
    out.push_back({{"cluster", app.cluster_role},
                   {"name", app.name},
                   {"status", or_null(app.status)},
                   {"message", or_null(app.message)},
                   {"healthy", !app.unhealthy}});
  }
  return out;
}

}  // namespace

object_state cluster_state(const cached_object& cluster, const view_context& context) {
  return read_once(cluster, context, read_cluster)->state;
}

void cluster_summary(const cached_object& cluster, const view_context& context, json& summary) {
  (void)context;
  const packed_value& body = cluster.body();
  summary["workers"] = {{"ready", or_null(get_int(body, {"status", "readyWorkerReplicas"}))},
                        {"desired", or_null(get_int(body, {"status", "desiredWorkerReplicas"}))}};
}

void cluster_details(const cached_object& cluster, const view_context& context, details_view& view) {
  const packed_value& body = cluster.body();
  const auto reading = read_once(cluster, context, read_cluster);
  add_notes(reading->notes, view);
  since_blocks(reading->since, view);
  view.blocks["headNotReadySince"] = reading->head_not_ready ? time_or_null(reading->head_since) : json(nullptr);
  view.blocks["statusState"] = or_null(string_or(body, {"status", "state"}));
  view.blocks["statusReason"] = or_null(reading->status_reason);
  view.blocks["autoscaling"] = get_bool(body, {"spec", "enableInTreeAutoscaling"}).value_or(false);
  view.blocks["workerGroups"] = worker_groups_json(body, *reading);
  std::string reason = incomplete_reason(context, core::pod_kind);
  if (!reason.empty()) {
    view.note(may_be_incomplete("The list of pods and the ready counts", reason));
  }
  json pods = json::array();
  for (const object_ptr& pod : reading->pods) {
    json row = link_json(context, *pod);
    row["state"] = state_json(core::pod_state(*pod, context));
    row["nodeType"] = or_null(string_or(pod->body(), {"metadata", "labels", node_type_label}));
    row["group"] = or_null(string_or(pod->body(), {"metadata", "labels", group_label}));
    row["ready"] = pod_ready(*pod);
    pods.push_back(std::move(row));
  }
  view.blocks["pods"] = {{"items", pods}, {"incomplete", !reason.empty()}, {"incompleteReason", or_null(reason)}};
  view.blocks["conditions"] = status_conditions_json(body);
  if (reading->head_pod) {
    view.link(context, "head-pod", *reading->head_pod);
  }
  view.link(context, "head-service", "v1", "Service", cluster.namespace_, head_service_name(cluster));
  link_owners(cluster, context, view);
}

object_state job_state(const cached_object& job, const view_context& context) {
  return read_once(job, context, read_job)->state;
}

void job_summary(const cached_object& job, const view_context& context, json& summary) {
  const auto reading = read_once(job, context, read_job);
  summary["attempts"] = {{"failed", or_null(reading->failed_attempts)}, {"limit", reading->max_attempts}};
}

void job_details(const cached_object& job, const view_context& context, details_view& view) {
  const packed_value& body = job.body();
  const auto reading = read_once(job, context, read_job);
  add_notes(reading->notes, view);
  since_blocks(reading->since, view);
  view.blocks["deploymentStatus"] = or_null(reading->deployment_status);
  view.blocks["jobStatus"] = or_null(reading->job_status);
  view.blocks["submissionMode"] = reading->submission_mode;
  view.blocks["attempts"] = {{"failed", or_null(reading->failed_attempts)}, {"limit", reading->max_attempts}};
  view.blocks["entrypoint"] = or_null(reading->entrypoint);
  view.blocks["message"] = or_null(masking::operator_text(string_or(body, {"status", "message"})));
  view.blocks["rayCluster"] = or_null(reading->cluster_name);
  // spec.runtimeEnvYAML is never shown: the profile does not even keep it.
  if (!reading->cluster_name.empty()) {
    view.link(context, "ray-cluster", context.api_version(raycluster_kind), "RayCluster", job.namespace_,
              reading->cluster_name);
  }
  if (reading->submission_mode == "K8sJobMode") {
    view.link(context, "submitter-job", context.api_version(core::job_kind), "Job", job.namespace_, job.name);
  }
  link_owners(job, context, view);
}

object_state service_state(const cached_object& service, const view_context& context) {
  return read_once(service, context, read_service)->state;
}

void service_summary(const cached_object& service, const view_context& context, json& summary) {
  const auto reading = read_once(service, context, read_service);
  std::int64_t unhealthy = 0;
  for (const serve_app& app : reading->apps) {
    unhealthy += app.unhealthy ? 1 : 0;
  }
  summary["applications"] = {{"total", reading->apps.size()}, {"unhealthy", unhealthy}};
}

void service_details(const cached_object& service, const view_context& context, details_view& view) {
  const packed_value& body = service.body();
  const auto reading = read_once(service, context, read_service);
  add_notes(reading->notes, view);
  since_blocks(reading->since, view);
  view.blocks["activeCluster"] = or_null(reading->active_cluster);
  view.blocks["pendingCluster"] = or_null(reading->pending_cluster);
  view.blocks["serveApplications"] = apps_json(*reading);
  std::optional<masking::masked_text> config = masked_serve_config(service);
  view.blocks["serveConfig"] = config ? json(masking::shown_or_see_yaml(*config)) : json(nullptr);
  if (std::string note = config ? masking::masking_note("The Serve config", *config) : ""; !note.empty()) {
    view.note(note);
  }
  view.blocks["conditions"] = status_conditions_json(body);
  if (reading->upgrading && reading->state.label == "Upgrading" && !reading->not_ready) {
    view.note("During the upgrade the active Ray Cluster keeps serving; traffic moves once the pending one is ready.");
  }
  const std::string cluster_version = context.api_version(raycluster_kind);
  if (!reading->active_cluster.empty()) {
    view.link(context, "active-cluster", cluster_version, "RayCluster", service.namespace_, reading->active_cluster);
  }
  if (!reading->pending_cluster.empty()) {
    view.link(context, "pending-cluster", cluster_version, "RayCluster", service.namespace_, reading->pending_cluster);
  }
  std::string serve = string_or(body, {"spec", "serveService", "metadata", "name"});
  view.link(context, "serve-service", "v1", "Service", service.namespace_,
            serve.empty() ? std::string(service.name) + "-serve-svc" : serve);
  link_owners(service, context, view);
}

}  // namespace sextant::kuberay
