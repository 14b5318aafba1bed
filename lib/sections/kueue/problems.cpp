// The two problem categories: `kueue-queues` (on by default) and `kueue-workloads` (off by
// default: it needs every Workload of the cluster watched).
#include <chrono>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"
#include "util/text.hpp"

namespace sextant::kueue {
namespace {

using std::chrono::minutes;

constexpr minutes queue_threshold{2};
constexpr minutes quota_wait_threshold{30};
constexpr minutes inadmissible_threshold{5};
constexpr std::int64_t eviction_limit = 3;

// Whether a wait is about quota: the scheduler's flavor-assignment and preemption messages (and
// the granular reasons for them), or no decision yet. Failed admission checks and waitForPodsReady
// are waits of another kind.
bool waits_for_quota(const waiting_reason& waiting) {
  const std::string& message = waiting.message;
  if (waiting.reason == "WaitingForQuota" || waiting.reason == "ExceedsMaxQuota" ||
      waiting.reason == "WaitingForPreemptedWorkloads") {
    return true;
  }
  return message.empty() || message.starts_with("couldn't assign flavors") || contains_text(message, "insufficient") ||
         contains_text(message, "Pending the preemption of") || contains_text(message, "Preempting ") ||
         message == "Workload no longer fits after processing another workload" ||
         message == "Workload is pending evaluation in the scheduling queue";
}

std::vector<finding> cluster_queue_findings(const cached_object& queue, const view_context& context) {
  const packed_value* active = condition_of(queue.body(), "Active");
  // No condition: Kueue has not spoken; a stop or a deletion is no fault.
  if (active == nullptr || being_deleted(queue.body())) {
    return {};
  }
  object_state state = cluster_queue_state(queue, context);
  if (state.label != "Inactive") {
    return {};
  }
  // Inactive with Active=True (a Cohort cycle), or inactive since a stop was lifted: no condition
  // tells since when, so the daemon's first sighting starts the clock.
  return {finding{"inactive", queue_fault_since(queue), queue_threshold,
                  "Cluster Queue " + std::string(queue.name) + " is inactive" +
                      (state.reason.empty() ? std::string() : " (" + state.reason + ")") + ": " + state.message}};
}

std::vector<finding> local_queue_findings(const cached_object& queue, const view_context& context) {
  if (being_deleted(queue.body()) || stop_policy_of(queue.body()) != "None") {
    return {};
  }
  std::string cluster = string_or(queue.body(), {"spec", "clusterQueue"});
  const packed_value* active = condition_of(queue.body(), "Active");
  const bool kueue_says_missing =
      active != nullptr && !condition_true(active) && string_or(*active, {"reason"}) == "ClusterQueueDoesNotExist";
  const bool cached = !cluster.empty() && context.store.get(cluster_queue_kind, "", cluster) != nullptr;
  if (cached || (!kueue_says_missing && !list_complete(context, cluster_queue_kind))) {
    return {};
  }
  return {finding{"cluster-queue-missing", kueue_says_missing ? queue_fault_since(queue) : std::nullopt,
                  queue_threshold,
                  "Local Queue " + std::string(queue.namespace_) + "/" + std::string(queue.name) +
                      " points at Cluster Queue " + cluster + ", which does not exist."}};
}

std::vector<finding> workload_findings(const cached_object& workload, const view_context& context) {
  if (being_deleted(workload.body())) {
    return {};
  }
  workload_reading reading = read_workload(workload, context);
  if (reading.finished) {
    return {};
  }
  std::vector<finding> found;
  if (reading.deactivated) {
    const deactivation& how = *reading.deactivated;
    // A person's deactivation is a decision, not a fault.
    if (how.by_kueue) {
      found.push_back({"deactivated-by-kueue", how.since, std::chrono::seconds{0},
                       "Deactivated by Kueue because " + deactivation_cause_words(how.cause) +
                           (how.message.empty() ? "." : ": " + how.message)});
    }
    return found;
  }
  eviction_summary evictions = evictions_of(workload.body());
  if (evictions.total && *evictions.total >= eviction_limit) {
    std::string reasons;
    for (const eviction_count& entry : evictions.by_reason) {
      reasons += (reasons.empty() ? "" : ", ") + entry.reason +
                 (entry.underlying_cause.empty() ? "" : " (" + entry.underlying_cause + ")") + " ×" +
                 std::to_string(entry.count);
    }
    found.push_back({"evicted-repeatedly", transition_time(condition_of(workload.body(), "Evicted")),
                     std::chrono::seconds{0},
                     "Evicted " + std::to_string(*evictions.total) + " times so far: " + reasons + "."});
  }
  if (!reading.waiting) {
    return found;
  }
  const waiting_reason& waiting = *reading.waiting;
  const std::optional<queue_blocker>& blocker = reading.held_by;
  if (blocker && blocker->on_purpose()) {
    return found;  // a stopped or deleted queue holds it on purpose
  }
  if (blocker) {
    // Inadmissible since its queue broke: the Workload's own condition keeps the time it began
    // waiting when only the reason changes (pkg/workload/workload.go:794-803), so the queue's
    // Active transition dates it; a Workload made later counts from its own wait. A queue that
    // tells no time leaves it to the first sighting.
    std::optional<time_point> since = blocker->since ? later_of(blocker->since, waiting.since) : std::nullopt;
    found.push_back({"inadmissible", since, inadmissible_threshold, blocker->message});
  } else if (reading.state.label == "Inadmissible") {
    found.push_back({"inadmissible", waiting.since, inadmissible_threshold, "Inadmissible: " + waiting.message});
  } else if (waits_for_quota(waiting)) {
    std::string cluster = cluster_queue_of(workload, context);
    found.push_back(
        {"waiting-for-quota", waiting_in_working_queues_since(workload, reading, context), quota_wait_threshold,
         "Waiting for quota" + (cluster.empty() ? std::string() : " in Cluster Queue " + cluster) +
             (waiting.message.empty() ? ": Kueue's scheduler has not considered it yet." : ": " + waiting.message)});
  }
  return found;
}

}  // namespace

std::vector<problem_rule> problem_rules() {
  return {
      problem_rule{std::string(queues_category), cluster_queue_kind, cluster_queue_findings},
      problem_rule{std::string(queues_category), local_queue_kind, local_queue_findings, {cluster_queue_kind}},
      problem_rule{
          std::string(workloads_category), workload_kind, workload_findings, {local_queue_kind, cluster_queue_kind}},
  };
}

}  // namespace sextant::kueue
