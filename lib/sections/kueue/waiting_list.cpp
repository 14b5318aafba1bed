#include "sections/kueue/waiting_list.hpp"

#include <algorithm>
#include <set>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"

namespace sextant::kueue {
namespace {

struct waiting_entry {
  object_ptr workload;
  workload_reading reading;
  time_point since;
};

}  // namespace

std::vector<object_ptr> local_queues_of(std::string_view cluster_queue, const view_context& context) {
  std::vector<object_ptr> out;
  for (const object_ptr& queue : context.store.list(local_queue_kind)) {
    if (string_or(queue->body(), {"spec", "clusterQueue"}) == cluster_queue) {
      out.push_back(queue);
    }
  }
  return out;
}

json waiting_list(const std::vector<queue_ref>& local_queues, const view_context& context,
                  const position_lookup& positions, position_in which) {
  const std::set<queue_ref> queues(local_queues.begin(), local_queues.end());
  std::vector<waiting_entry> waiting;
  if (!queues.empty()) {
    for (const object_ptr& workload : context.store.list(workload_kind)) {
      if (!queues.contains({std::string(workload->namespace_), string_or(workload->body(), {"spec", "queueName"})})) {
        continue;
      }
      workload_reading reading = read_workload(*workload, context);
      if (!waits_in_queue(reading)) {
        continue;
      }
      time_point since = reading.waiting->since.value_or(workload->first_seen);
      waiting.push_back({workload, std::move(reading), since});
    }
  }
  std::sort(waiting.begin(), waiting.end(), [](const waiting_entry& a, const waiting_entry& b) {
    return std::tie(a.since, a.workload->namespace_, a.workload->name) <
           std::tie(b.since, b.workload->namespace_, b.workload->name);
  });

  json items = json::array();
  std::string positions_unknown;  // the first reason a listed Workload has no position
  for (std::size_t index = 0; index < waiting.size() && index < waiting_list_limit; ++index) {
    const waiting_entry& entry = waiting[index];
    const cached_object& workload = *entry.workload;
    json position = nullptr;
    position_reading found =
        positions ? positions(workload, context) : position_reading{std::nullopt, "positions are not read here"};
    if (found.position) {
      auto value =
          which == position_in::cluster_queue ? found.position->in_cluster_queue : found.position->in_local_queue;
      position = or_null(value);
      if (!value && positions_unknown.empty()) {
        positions_unknown = "Kueue's visibility API gave no position for " + std::string(workload.name);
      }
    } else if (positions_unknown.empty()) {
      positions_unknown = found.unknown_because.empty() ? "unknown" : found.unknown_because;
    }
    items.push_back({{"namespace", workload.namespace_},
                     {"name", workload.name},
                     {"path", context.path_json(workload.type, workload.namespace_, workload.name)},
                     {"localQueue", string_or(workload.body(), {"spec", "queueName"})},
                     {"since", format_rfc3339(entry.since)},
                     {"state", entry.reading.state.label},
                     {"reason", entry.reading.waiting->reason},
                     {"message", entry.reading.waiting->message},
                     {"position", std::move(position)}});
  }
  std::string reason = incomplete_reason(context, workload_kind, workload_cap, "Workloads");
  return json{{"items", std::move(items)},
              {"total", waiting.size()},
              {"incomplete", !reason.empty()},
              {"incompleteReason", or_null(reason)},
              {"positionsUnknownReason", or_null(positions_unknown)}};
}

}  // namespace sextant::kueue
