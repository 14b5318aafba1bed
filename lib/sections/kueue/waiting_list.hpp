#pragma once
// A queue's waiting Workloads, oldest first: what a Cluster Queue or Local Queue details show.
#include <string>
#include <utility>
#include <vector>

#include "sections/kueue/visibility.hpp"
#include "sections/view_context.hpp"
#include "store/object.hpp"
#include "store/packed_value.hpp"

namespace sextant::kueue {

enum class position_in { cluster_queue, local_queue };

// A Local Queue by namespace and name.
using queue_ref = std::pair<std::string, std::string>;

// {items: [{namespace, name, path, localQueue, since, state, reason, message, position}],
//  total, incomplete, incompleteReason} for the Workloads waiting in `local_queues` (those
// without a quota reservation that are neither finished nor deactivated), at most 50.
json waiting_list(const std::vector<queue_ref>& local_queues, const view_context& context,
                  const position_lookup& positions, position_in which);

// The Local Queues that point at a Cluster Queue.
std::vector<object_ptr> local_queues_of(std::string_view cluster_queue, const view_context& context);

}  // namespace sextant::kueue
