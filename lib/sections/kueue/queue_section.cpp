// The Queue section on jobs: the job's Workload, its state and its queues, both as a route of
// its own (/api/v1/kueue/queue/{jobresource}/{namespace}/{name}) and inside the job's details.
#include <algorithm>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"
#include "util/object_names.hpp"

namespace sextant::kueue {
namespace {

std::string label_or_annotation(const packed_value& object, std::string_view key, bool annotation_too) {
  std::string value = string_or(object, {"metadata", "labels", key});
  if (value.empty() && annotation_too) {
    value = string_or(object, {"metadata", "annotations", key});
  }
  return value;
}

// Through v0.14 (v1beta1 only) Kueue also read the queue name from an annotation.
bool kueue_reads_queue_annotation(const view_context& context) {
  const served_kind* served = context.served.find(workload_kind);
  return served != nullptr && !served->versions.empty() &&
         std::find(served->versions.begin(), served->versions.end(), "v1beta2") == served->versions.end();
}

// The job's Workload: the prebuilt one it names, else the one Kueue labelled with its uid (or
// that it owns). When several match (a job recreated under the same uid cannot happen, but
// Workload slices can), the unfinished and newest wins.
object_ptr workload_of(const cached_object& job, const view_context& context) {
  std::string prebuilt = label_or_annotation(job.body(), prebuilt_workload_label, true);
  if (!prebuilt.empty()) {
    if (object_ptr found = context.store.get(workload_kind, job.namespace_, prebuilt)) {
      return found;
    }
  }
  if (job.uid.empty()) {
    return nullptr;
  }
  std::vector<object_ptr> candidates = context.store.with_label(workload_kind, std::string(job_uid_label), job.uid);
  if (candidates.empty()) {
    candidates = context.store.owned_by(workload_kind, job.uid);
  }
  object_ptr best;
  for (const object_ptr& candidate : candidates) {
    if (candidate->namespace_ != job.namespace_) {
      continue;
    }
    auto rank = [](const object_ptr& workload) {
      return std::make_pair(!read_workload(workload->body()).finished,
                            string_or(workload->body(), {"metadata", "creationTimestamp"}));
    };
    if (!best || rank(candidate) > rank(best)) {
      best = candidate;
    }
  }
  return best;
}

// The router wraps an error answer in the API's error envelope, taking the message from the body.
route_answer error(int status, std::string reason, std::string message) {
  return route_answer{status, json{{"message", std::move(message)}}, std::move(reason)};
}

}  // namespace

const std::vector<job_resource>& job_resources() {
  static const std::vector<job_resource> resources{
      {"jobs", {"batch", "Job"}},
      {"jobsets", {"jobset.x-k8s.io", "JobSet"}},
      {"rayjobs", {"ray.io", "RayJob"}},
      {"rayclusters", {"ray.io", "RayCluster"}},
      {"pytorchjobs", {"kubeflow.org", "PyTorchJob"}},
      {"tfjobs", {"kubeflow.org", "TFJob"}},
      {"mpijobs", {"kubeflow.org", "MPIJob"}},
      {"xgboostjobs", {"kubeflow.org", "XGBoostJob"}},
      {"paddlejobs", {"kubeflow.org", "PaddleJob"}},
      {"jaxjobs", {"kubeflow.org", "JAXJob"}},
      {"trainjobs", {"trainer.kubeflow.org", "TrainJob"}},
      {"leaderworkersets", {"leaderworkerset.x-k8s.io", "LeaderWorkerSet"}},
      {"appwrappers", {"workload.codeflare.dev", "AppWrapper"}},
  };
  return resources;
}

json queue_block(const cached_object& job, const view_context& context) {
  // Where Kueue is not installed there is no Queue section, and nothing is read for it.
  if (!context.served.serves(workload_kind)) {
    return nullptr;
  }
  std::string queue_name = label_or_annotation(job.body(), queue_name_label, kueue_reads_queue_annotation(context));
  object_ptr workload = workload_of(job, context);
  const std::string unread = incomplete_reason(context, workload_kind, workload_cap, "Workloads");
  const bool workloads_known = unread.empty();
  // No label and no Workload is "no Queue section" only once every Workload is known.
  if (queue_name.empty() && !workload && workloads_known) {
    return nullptr;
  }
  json block = {{"workload", nullptr},     {"state", nullptr},   {"queueName", queue_name}, {"localQueue", nullptr},
                {"clusterQueue", nullptr}, {"waiting", nullptr}, {"evictions", nullptr},    {"message", nullptr}};
  if (!workload) {
    if (!queue_name.empty()) {
      block["localQueue"] = link_to(context, local_queue_kind, job.namespace_, queue_name);
      if (object_ptr local = context.store.get(local_queue_kind, job.namespace_, queue_name)) {
        std::string cluster = string_or(local->body(), {"spec", "clusterQueue"});
        block["clusterQueue"] = cluster.empty() ? json(nullptr) : link_to(context, cluster_queue_kind, "", cluster);
      }
    }
    if (workloads_known) {
      block["message"] = "Queued for Local Queue " + queue_name + ": Kueue has not created its Workload yet.";
    } else {
      block["message"] =
          "Cannot tell yet whether Kueue has made a Workload for it. " + may_be_incomplete("The Workload list", unread);
    }
    return block;
  }
  workload_reading reading = read_workload(*workload, context);
  json queues = workload_queues(*workload, context);
  block["workload"] = link_json(context, *workload);
  block["state"] = {
      {"label", reading.state.label}, {"reason", reading.state.reason}, {"message", reading.state.message}};
  if (queue_name.empty()) {
    block["queueName"] = string_or(workload->body(), {"spec", "queueName"});
  }
  block["localQueue"] = queues["localQueue"];
  block["clusterQueue"] = queues["clusterQueue"];
  if (reading.waiting) {
    json waiting = {{"reason", reading.waiting->reason},
                    {"message", reading.waiting->message},
                    {"since", time_or_null(reading.waiting->since)},
                    {"blockedBy", nullptr}};
    if (reading.held_by) {
      waiting["blockedBy"] = blocker_json(*reading.held_by, context);
      block["message"] = reading.held_by->message;
    }
    block["waiting"] = std::move(waiting);
  }
  block["evictions"] = evictions_json(evictions_of(workload->body()));
  return block;
}

std::vector<kind_key> queue_route_needs(std::span<const std::string> rest) {
  if (rest.empty()) {
    return {};
  }
  for (const job_resource& candidate : job_resources()) {
    if (candidate.id == rest[0]) {
      return {candidate.type};
    }
  }
  return {};
}

std::optional<access_check> queue_route_permission(std::span<const std::string> rest) {
  if (rest.size() != 3) {
    return std::nullopt;
  }
  for (const job_resource& candidate : job_resources()) {
    if (candidate.id == rest[0]) {
      return access_check::on_resource("get", candidate.type.group, std::string(candidate.id), rest[1]);
    }
  }
  return std::nullopt;
}

route_answer queue_route(std::span<const std::string> rest, const view_context& context) {
  if (rest.size() != 3) {
    return error(400, "BadRequest", "Expected /api/v1/kueue/queue/{jobresource}/{namespace}/{name}.");
  }
  const std::string& resource = rest[0];
  auto match = std::find_if(job_resources().begin(), job_resources().end(),
                            [&resource](const job_resource& candidate) { return candidate.id == resource; });
  if (match == job_resources().end()) {
    return error(404, "NotFound", "No job resource \"" + resource + "\" has a Queue section.");
  }
  if (!valid_namespace(rest[1])) {
    return error(400, "BadRequest",
                 "the namespace is not a valid namespace name (lower-case letters, digits and '-', at most 63)");
  }
  if (!valid_name(rest[2])) {
    return error(400, "BadRequest", "the name is not a valid object name (1 to 253 characters, no '/')");
  }
  if (!context.served.serves(workload_kind)) {
    return error(404, "NotServed", "Kueue is not installed: the cluster serves no Workloads.");
  }
  if (!context.served.serves(match->type)) {
    return error(404, "NotServed", "The cluster does not serve " + match->type.kind + " (" + match->type.group + ").");
  }
  object_ptr job = context.store.get(match->type, rest[1], rest[2]);
  if (!job) {
    const list_completeness completeness = context.store.completeness(match->type);
    // Watched on demand: the first ask starts the watch, and "not found" waits for its list.
    if (completeness.value == list_completeness::state::not_synced) {
      return error(503, "Unavailable",
                   "Cannot tell yet: " + match->type.kind + " objects are being read; ask again in a moment.");
    }
    if (completeness.value == list_completeness::state::unreadable) {
      return error(503, "Unavailable",
                   "Cannot tell: " + match->type.kind + " objects cannot be read (" + completeness.reason + ").");
    }
    return error(404, "NotFound", match->type.kind + " " + rest[1] + "/" + rest[2] + " not found.");
  }
  json block = queue_block(*job, context);
  if (block.is_null()) {
    return error(404, "NoQueueSection",
                 match->type.kind + " " + rest[1] + "/" + rest[2] + " has no queue label and no Workload.");
  }
  return route_answer{200, std::move(block), ""};
}

}  // namespace sextant::kueue
