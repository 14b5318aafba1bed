#pragma once
// Where a waiting Workload stands in its queues, as Kueue's visibility API
// (visibility.kueue.x-k8s.io, `pendingworkloads` of a Cluster or Local Queue) tells it.
//
// Only Kueue knows the order it will admit in (priority, fair sharing, requeue backoff), so the
// section never computes a position: it asks a lookup that the live client fills from the
// visibility API. Without one (snapshot mode, a cluster without the API) positions are null.
#include <cstdint>
#include <functional>
#include <optional>

#include "sections/view_context.hpp"
#include "store/object.hpp"

namespace sextant::kueue {

struct queue_position {
  std::optional<std::int64_t> in_cluster_queue;  // positionInClusterQueue, 0-based as Kueue gives it
  std::optional<std::int64_t> in_local_queue;    // positionInLocalQueue
};

// The position of one waiting Workload, or nullopt when the visibility API did not list it.
using position_lookup =
    std::function<std::optional<queue_position>(const cached_object& workload, const view_context& context)>;

}  // namespace sextant::kueue
