#pragma once
// One reading of a Workload's conditions, shared by its state, its details, the waiting lists,
// the Queue section on jobs and the problem rules, so that all of them say the same thing.
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::kueue {

// Who deactivated a Workload, and why.
struct deactivation {
  bool by_kueue = false;
  bool in_progress = false;  // DeactivationTarget set, eviction not applied yet
  std::string cause;         // "RequeuingLimitExceeded", ... (empty for a person)
  std::string reason;        // as Kueue wrote it: "DeactivatedDueToAdmissionCheck", "InactiveWorkload"
  std::string message;       // Kueue's message, as written
  std::optional<time_point> since;
};

// Why a Workload without a reservation waits: the QuotaReserved=False condition as written.
struct waiting_reason {
  std::string reason;
  std::string message;
  std::optional<time_point> since;  // when it began waiting (the condition's transition, else creation)
};

// The queue a waiting Workload is held up by: stopped, inactive or missing.
struct queue_blocker {
  kind_key type;
  std::string namespace_;
  std::string name;
  bool exists = true;
  std::optional<object_state> state;  // the queue's own state, when it exists
  std::string message;                // the sentence that tells the wait through the queue
  // Since when the queue has held it up, when a queue's own Active condition tells (the
  // Workload's QuotaReserved time keeps an older wait's when only its reason changes); nullopt
  // for a missing queue, a Cohort cycle, or a queue whose time cannot be trusted.
  std::optional<time_point> since;
  bool stopped() const { return state && (state->label == "Stopped"); }
  // Held on purpose (a stop policy, a deletion): no fault of the Workload.
  bool on_purpose() const { return state && (state->label == "Stopped" || state->label == "Terminating"); }
};
struct workload_reading {
  object_state state;
  std::optional<time_point> since;  // when the deciding condition last changed
  bool finished = false;
  bool quota_reserved = false;
  bool admitted = false;
  bool evicted = false;  // Evicted=True
  std::optional<deactivation> deactivated;
  // Set while it waits for a reservation (not finished, not deactivated, no quota reserved).
  std::optional<waiting_reason> waiting;
  // The queue that holds it while it waits, when one does (read only with the store).
  std::optional<queue_blocker> held_by;
};

// What the Workload's own conditions say.
workload_reading read_workload(const packed_value& workload);
// The same, told through its queues: a Workload held by a stopped or deleted queue is Pending
// (a stop is not its fault), and one held by a queue Kueue cannot use is Inadmissible, whatever
// reason Kueue wrote (Pending, Suspended or Inadmissible depending on who wrote it and Kueue's
// UnadmittedWorkloadsObservability gate); either way its message names the queue and the queue's
// own message. Every view of a Workload renders this reading.
workload_reading read_workload(const cached_object& workload, const view_context& context);

// Whether the Workload is waiting in its queue: no quota reserved, not finished, not deactivated.
inline bool waits_in_queue(const workload_reading& reading) {
  return reading.waiting.has_value();
}

// A deactivation reason split into who and why: "DeactivatedDueToX" and "InactiveWorkloadX" are
// Kueue's (cause X); "Deactivated" and "InactiveWorkload" a person's. Nullopt for other reasons.
std::optional<deactivation> deactivation_from_reason(const std::string& reason);
// Plain words for a cause Kueue deactivates for.
std::string deactivation_cause_words(const std::string& cause);

// Evictions so far: schedulingStats.evictions summed, with each (reason, underlyingCause).
struct eviction_count {
  std::string reason;
  std::string underlying_cause;
  std::int64_t count = 0;
};
struct eviction_summary {
  std::optional<std::int64_t> total;  // null when the Workload carries no schedulingStats yet was evicted
  std::vector<eviction_count> by_reason;
  bool saturated = false;  // a sum passed the largest count: it is held there
};
eviction_summary evictions_of(const packed_value& workload);
json evictions_json(const eviction_summary& summary);

std::optional<queue_blocker> blocking_queue(const cached_object& workload, const workload_reading& reading,
                                            const view_context& context);
json blocker_json(const queue_blocker& blocker, const view_context& context);

// The Local Queue and Cluster Queue a Workload is in: {localQueue, clusterQueue} links (null
// when unknown).
json workload_queues(const cached_object& workload, const view_context& context);
// The Cluster Queue a Workload is (or would be) admitted to: its admission's, else its Local Queue's.
std::string cluster_queue_of(const cached_object& workload, const view_context& context);
// Since when a waiting Workload has waited in working queues: its own wait's start, or the
// latest Active=True transition of its Local and Cluster Queue when later (a queue repaired or
// restarted under it: Kueue turns the reason back to Pending and keeps the older time).
std::optional<time_point> waiting_in_working_queues_since(const cached_object& workload,
                                                          const workload_reading& reading, const view_context& context);

}  // namespace sextant::kueue
