// Which queues a Workload is in, and whether one of them holds it up.
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"
#include "util/text.hpp"

namespace sextant::kueue {
namespace {

// Kueue's own word that a queue is missing, from the messages it writes on QuotaReserved=False:
// "<Kind> <name> doesn't exist", "... not found", "... is terminating or missing".
bool kueue_says_missing(const workload_reading& reading, std::string_view kind, const std::string& name) {
  if (!reading.waiting) {
    return false;
  }
  const std::string& message = reading.waiting->message;
  std::string subject = std::string(kind) + " " + name + " ";
  return contains_text(message, subject + "doesn't exist") || contains_text(message, subject + "not found") ||
         contains_text(message, subject + "is terminating or missing");
}

std::string held_sentence(const std::string& kind_words, const std::string& name, const cached_object& queue,
                          const object_state& state) {
  std::string sentence = "Waits because its " + kind_words + " " + name;
  if (state.label == "Stopped") {
    // Who stopped it is not recorded anywhere Kueue writes.
    std::string policy = stop_policy_of(queue.body());
    return sentence + " is stopped" + (policy == "None" ? std::string() : " (stopPolicy " + policy + ")") + ".";
  }
  if (state.label == "Terminating") {
    return sentence + " is being deleted.";
  }
  sentence += state.label == "Inactive" ? " is inactive" : " is " + state.label;
  return sentence + (state.message.empty() ? "." : ": " + state.message);
}

}  // namespace

std::string cluster_queue_of(const cached_object& workload, const view_context& context) {
  std::string admitted_to = string_or(workload.body(), {"status", "admission", "clusterQueue"});
  if (!admitted_to.empty()) {
    return admitted_to;
  }
  std::string local = string_or(workload.body(), {"spec", "queueName"});
  if (local.empty()) {
    return {};
  }
  if (object_ptr queue = context.store.get(local_queue_kind, workload.namespace_, local)) {
    return string_or(queue->body(), {"spec", "clusterQueue"});
  }
  return {};
}

json workload_queues(const cached_object& workload, const view_context& context) {
  std::string local = string_or(workload.body(), {"spec", "queueName"});
  std::string cluster = cluster_queue_of(workload, context);
  return json{
      {"localQueue", local.empty() ? json(nullptr) : link_to(context, local_queue_kind, workload.namespace_, local)},
      {"clusterQueue", cluster.empty() ? json(nullptr) : link_to(context, cluster_queue_kind, "", cluster)}};
}

std::optional<queue_blocker> blocking_queue(const cached_object& workload, const workload_reading& reading,
                                            const view_context& context) {
  if (!reading.waiting) {
    return std::nullopt;
  }
  std::string local_name = string_or(workload.body(), {"spec", "queueName"});
  if (local_name.empty()) {
    return std::nullopt;
  }
  object_ptr local = context.store.get(local_queue_kind, workload.namespace_, local_name);
  if (!local) {
    if (kueue_says_missing(reading, "LocalQueue", local_name) || list_complete(context, local_queue_kind)) {
      // Nothing left tells when it went missing.
      return queue_blocker{local_queue_kind, std::string(workload.namespace_),
                           local_name,       false,
                           std::nullopt,     "Waits because its Local Queue " + local_name + " does not exist.",
                           std::nullopt};
    }
    return std::nullopt;
  }
  object_state local_state = local_queue_state(*local, context);
  const bool local_blames_cluster_queue =
      local_state.reason == "ClusterQueueDoesNotExist" || local_state.reason == "ClusterQueueIsInactive";
  auto held_by_local_queue = [&] {
    return queue_blocker{local_queue_kind,
                         std::string(workload.namespace_),
                         local_name,
                         true,
                         local_state,
                         held_sentence("Local Queue", local_name, *local, local_state),
                         queue_fault_since(*local)};
  };
  if (local_state.label != "Active" && !local_blames_cluster_queue) {
    return held_by_local_queue();
  }

  std::string cluster_name = string_or(local->body(), {"spec", "clusterQueue"});
  if (cluster_name.empty()) {
    return std::nullopt;
  }
  object_ptr cluster = context.store.get(cluster_queue_kind, "", cluster_name);
  if (!cluster) {
    if (local_state.reason == "ClusterQueueDoesNotExist" || kueue_says_missing(reading, "ClusterQueue", cluster_name) ||
        list_complete(context, cluster_queue_kind)) {
      // The Local Queue turned inactive when its Cluster Queue went missing, and says when.
      std::optional<time_point> since =
          local_state.reason == "ClusterQueueDoesNotExist" ? queue_fault_since(*local) : std::nullopt;
      return queue_blocker{cluster_queue_kind,
                           "",
                           cluster_name,
                           false,
                           std::nullopt,
                           "Waits because its Cluster Queue " + cluster_name + " does not exist.",
                           since};
    }
    return std::nullopt;
  }
  object_state cluster_state = cluster_queue_state(*cluster, context);
  if (cluster_state.label != "Active") {
    // A Cohort cycle keeps Active=True and has no time: queue_fault_since says nullopt for it.
    return queue_blocker{cluster_queue_kind,
                         "",
                         cluster_name,
                         true,
                         cluster_state,
                         held_sentence("Cluster Queue", cluster_name, *cluster, cluster_state),
                         queue_fault_since(*cluster)};
  }
  // The scheduler also treats an Active queue as inactive while its cohort tree has a cycle (or
  // its topology usage has not synced); only its message tells.
  if (reading.waiting->message == "ClusterQueue " + cluster_name + " is inactive") {
    return queue_blocker{cluster_queue_kind,
                         "",
                         cluster_name,
                         true,
                         cluster_state,
                         "Waits because Kueue's scheduler treats its Cluster Queue " + cluster_name +
                             " as inactive though its Active condition is True: its cohort tree may have a "
                             "cycle, or its topology usage has not synced yet.",
                         std::nullopt};
  }
  if (local_blames_cluster_queue) {
    return held_by_local_queue();
  }
  return std::nullopt;
}

workload_reading read_workload(const cached_object& workload, const view_context& context) {
  workload_reading reading = read_workload(workload.body());
  reading.held_by = blocking_queue(workload, reading, context);
  const bool waiting_label = reading.state.label == "Pending" || reading.state.label == "Inadmissible";
  if (!reading.held_by || !waiting_label) {
    return reading;
  }
  // The queue decides, not the reason: Kueue writes Inadmissible (or, with the
  // UnadmittedWorkloadsObservability gate, Suspended) for a stop as for a broken queue, and its
  // scheduler writes Pending (or Suspended) for a queue under a Cohort cycle
  // (pkg/scheduler/scheduler.go:677-679, 1172). A stop is not the Workload's fault; a queue Kueue
  // cannot use makes it Inadmissible. Either way the state names the queue.
  const queue_blocker& held = *reading.held_by;
  reading.state = {held.on_purpose() ? "Pending" : "Inadmissible", reading.state.reason, held.message};
  return reading;
}

std::optional<time_point> waiting_in_working_queues_since(const cached_object& workload,
                                                          const workload_reading& reading,
                                                          const view_context& context) {
  if (!reading.waiting) {
    return std::nullopt;
  }
  std::optional<time_point> since = reading.waiting->since;
  std::string local_name = string_or(workload.body(), {"spec", "queueName"});
  object_ptr local =
      local_name.empty() ? nullptr : context.store.get(local_queue_kind, workload.namespace_, local_name);
  if (local) {
    since = later_of(since, queue_active_since(*local));
  }
  std::string cluster_name = cluster_queue_of(workload, context);
  if (object_ptr cluster = cluster_name.empty() ? nullptr : context.store.get(cluster_queue_kind, "", cluster_name)) {
    since = later_of(since, queue_active_since(*cluster));
  }
  return since;
}

json blocker_json(const queue_blocker& blocker, const view_context& context) {
  json state = nullptr;
  if (blocker.state) {
    state = {{"label", blocker.state->label}, {"reason", blocker.state->reason}, {"message", blocker.state->message}};
  }
  json out = link_to(context, blocker.type, blocker.namespace_, blocker.name);
  out["exists"] = blocker.exists;
  out["state"] = std::move(state);
  out["message"] = blocker.message;
  return out;
}

}  // namespace sextant::kueue
