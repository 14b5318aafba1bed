// The Queue section on jobs: the job's Workload, its state and its queues, both as a route of
// its own (/api/v1/kueue/queue/{jobresource}/{namespace}/{name}) and inside the job's details.
#include <algorithm>
#include <tuple>

#include "sections/kueue/job_workloads.hpp"
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"
#include "util/object_names.hpp"

namespace sextant::kueue {
namespace {

// Through v0.14 (v1beta1 only) Kueue also read the queue name from an annotation.
bool kueue_reads_queue_annotation(const view_context& context) {
  const served_kind* served = context.served.find(workload_kind);
  return served != nullptr && !served->versions.empty() &&
         std::find(served->versions.begin(), served->versions.end(), "v1beta2") == served->versions.end();
}

struct read_workload_entry {
  object_ptr workload;
  workload_reading reading;
  std::optional<std::int64_t> group;
};

// The Workload the job waits on leads: an unfinished one before a finished one, one not admitted
// before an admitted one (the group or the new slice that waits), then the newest.
bool leads(const read_workload_entry& a, const read_workload_entry& b) {
  auto key = [](const read_workload_entry& entry) {
    return std::make_tuple(entry.reading.finished, entry.reading.admitted);
  };
  if (key(a) != key(b)) {
    return key(a) < key(b);
  }
  std::string made_a = string_or(a.workload->body(), {"metadata", "creationTimestamp"});
  std::string made_b = string_or(b.workload->body(), {"metadata", "creationTimestamp"});
  return made_a != made_b ? made_a > made_b : a.workload->name < b.workload->name;
}

// "3 Workloads, one per group: 2 Admitted, 1 Pending."
std::string several_sentence(const std::vector<read_workload_entry>& entries) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  bool grouped = false;
  for (const read_workload_entry& entry : entries) {
    grouped = grouped || entry.group.has_value();
    auto at = std::find_if(counts.begin(), counts.end(),
                           [&entry](const auto& count) { return count.first == entry.reading.state.label; });
    if (at == counts.end()) {
      counts.emplace_back(entry.reading.state.label, 1);
    } else {
      ++at->second;
    }
  }
  std::string out = std::to_string(entries.size()) + " Workloads" + (grouped ? ", one per group: " : ": ");
  for (std::size_t i = 0; i < counts.size(); ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(counts[i].second) + " " + counts[i].first;
  }
  return out + ".";
}

json prebuilt_json(const job_workloads& workloads, const view_context& context, const std::string& namespace_) {
  if (workloads.prebuilt.empty()) {
    return nullptr;
  }
  json out = link_to(context, workload_kind, namespace_, workloads.prebuilt);
  out["exists"] = exists_json(workloads.prebuilt_object != nullptr, context, workload_kind);
  out["controlledBy"] = workloads.prebuilt_owner
                            ? json{{"kind", workloads.prebuilt_owner->kind}, {"name", workloads.prebuilt_owner->name}}
                            : json(nullptr);
  return out;
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
  job_workloads workloads = workloads_of(job, context);
  const std::string unread = incomplete_reason(context, workload_kind, workload_cap, "Workloads");
  const bool workloads_known = unread.empty();
  // No label and no Workload is "no Queue section" only once every Workload is known.
  if (queue_name.empty() && workloads.found.empty() && !workloads.prebuilt_object && workloads_known) {
    return nullptr;
  }
  json block = {{"workload", nullptr},
                {"state", nullptr},
                {"queueName", queue_name},
                {"localQueue", nullptr},
                {"clusterQueue", nullptr},
                {"waiting", nullptr},
                {"evictions", nullptr},
                {"message", nullptr},
                {"workloads", json::array()},
                {"workloadsTotal", 0},
                {"prebuiltWorkload", prebuilt_json(workloads, context, std::string(job.namespace_))}};
  if (workloads.found.empty()) {
    if (!queue_name.empty()) {
      block["localQueue"] = link_to(context, local_queue_kind, job.namespace_, queue_name);
      if (object_ptr local = context.store.get(local_queue_kind, job.namespace_, queue_name)) {
        std::string cluster = string_or(local->body(), {"spec", "clusterQueue"});
        block["clusterQueue"] = cluster.empty() ? json(nullptr) : link_to(context, cluster_queue_kind, "", cluster);
      }
    }
    if (workloads.prebuilt_elsewhere) {
      block["message"] = "Names the prebuilt Workload " + workloads.prebuilt + ", which " +
                         workloads.prebuilt_owner->kind + " " + workloads.prebuilt_owner->name +
                         " controls: Kueue ignores it for this job, which stays suspended.";
    } else if (!workloads_known) {
      block["message"] =
          "Cannot tell yet whether Kueue has made a Workload for it. " + may_be_incomplete("The Workload list", unread);
    } else if (!workloads.prebuilt.empty()) {
      block["message"] = "Waits for its prebuilt Workload " + workloads.prebuilt +
                         ": Kueue never creates a prebuilt Workload, and keeps the job suspended until one of that "
                         "name exists.";
    } else {
      block["message"] = "Queued for Local Queue " + queue_name + ": Kueue has not created its Workload yet.";
    }
    return block;
  }
  std::vector<read_workload_entry> entries;
  for (const object_ptr& workload : workloads.found) {
    entries.push_back({workload, read_workload(*workload, context), group_index(*workload, job)});
  }
  // Listed by group: a LeaderWorkerSet's groups each wait or run on their own.
  std::sort(entries.begin(), entries.end(), [](const read_workload_entry& a, const read_workload_entry& b) {
    return std::make_tuple(!a.group.has_value(), a.group.value_or(0), std::string_view(a.workload->name)) <
           std::make_tuple(!b.group.has_value(), b.group.value_or(0), std::string_view(b.workload->name));
  });
  const read_workload_entry& lead = *std::min_element(entries.begin(), entries.end(), leads);
  const cached_object& workload = *lead.workload;
  const workload_reading& reading = lead.reading;
  json queues = workload_queues(workload, context);
  block["workload"] = link_json(context, workload);
  block["state"] = {
      {"label", reading.state.label}, {"reason", reading.state.reason}, {"message", reading.state.message}};
  if (queue_name.empty()) {
    block["queueName"] = string_or(workload.body(), {"spec", "queueName"});
  }
  block["localQueue"] = queues["localQueue"];
  block["clusterQueue"] = queues["clusterQueue"];
  std::string message = entries.size() > 1 ? several_sentence(entries) : std::string();
  if (reading.waiting) {
    json waiting = {{"reason", reading.waiting->reason},
                    {"message", reading.waiting->message},
                    {"since", time_or_null(reading.waiting->since)},
                    {"blockedBy", nullptr}};
    if (reading.held_by) {
      waiting["blockedBy"] = blocker_json(*reading.held_by, context);
      message += (message.empty() ? "" : " ") + reading.held_by->message;
    }
    block["waiting"] = std::move(waiting);
  }
  block["message"] = or_null(message);
  block["evictions"] = evictions_json(evictions_of(workload.body()));
  json listed = json::array();
  for (std::size_t i = 0; i < entries.size() && i < waiting_list_limit; ++i) {
    json entry = link_json(context, *entries[i].workload);
    entry["group"] = or_null(entries[i].group);
    const object_state& state = entries[i].reading.state;
    entry["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
    listed.push_back(std::move(entry));
  }
  block["workloads"] = std::move(listed);
  block["workloadsTotal"] = entries.size();
  return block;
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
