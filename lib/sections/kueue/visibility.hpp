#pragma once
// Where a waiting Workload stands in its queues, as Kueue's visibility API
// (visibility.kueue.x-k8s.io, `pendingworkloads` of a Cluster or Local Queue) tells it.
//
// Only Kueue knows the order it will admit in (priority, fair sharing, requeue backoff), so the
// section never computes a position: it reads the PendingWorkloadsSummary of the Workload's
// Cluster Queue, which the live source polls while a waiting list is looked at (the section
// declares it as a polled_document). Without it (snapshot mode, a cluster without the API, the
// first look before the first read) positions are null.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sections/section.hpp"
#include "sections/view_context.hpp"
#include "store/object.hpp"

namespace sextant::kueue {

struct queue_position {
  std::optional<std::int64_t> in_cluster_queue;  // positionInClusterQueue, 0-based as Kueue gives it
  std::optional<std::int64_t> in_local_queue;    // positionInLocalQueue
};

// The position of one waiting Workload, or why it is not known: a null position alone would read
// as "not waiting" or "no queue", so every null comes with its reason.
struct position_reading {
  position_reading(std::optional<queue_position> found = std::nullopt, std::string why = {})
      : position(found), unknown_because(std::move(why)) {}
  std::optional<queue_position> position;
  std::string unknown_because;  // when there is no position: "not read yet", the API's failure, ...
};

using position_lookup = std::function<position_reading(const cached_object& workload, const view_context& context)>;

// The document id views ask by, and its declaration: a ClusterQueue's `pendingworkloads`, which
// lists every pending Workload of its Local Queues with both positions (v1beta2 where served).
inline constexpr const char* pending_workloads_document = "pendingworkloads";
polled_document pending_workloads_polling();

// Positions from the polled summary of the Workload's Cluster Queue (through its Local Queue).
position_reading position_from_visibility(const cached_object& workload, const view_context& context);

}  // namespace sextant::kueue
