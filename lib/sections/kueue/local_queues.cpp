// Local Queues: which Cluster Queue they feed, their usage, and their waiting Workloads.
#include <map>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/quota_rows.hpp"
#include "sections/kueue/waiting_list.hpp"

namespace sextant::kueue {
namespace {

// [{flavor, resource, reserved, inUse}] from flavorsReservation and flavorsUsage (flavorUsage in
// v1beta1); their entries carry `total` only.
json usage_rows(const packed_value& queue) {
  std::map<std::pair<std::string, std::string>, json> rows;
  std::vector<std::pair<std::string, std::string>> order;
  auto add = [&](const packed_value& list, const char* column) {
    for (const packed_value& flavor : list.is_array() ? list : packed_value::empty_array()) {
      for (const packed_value& resource : array_or_empty(flavor, {"resources"})) {
        auto key = std::make_pair(string_or(flavor, {"name"}), string_or(resource, {"name"}));
        if (!rows.contains(key)) {
          order.push_back(key);
          rows[key] = {{"flavor", key.first}, {"resource", key.second}, {"reserved", nullptr}, {"inUse", nullptr}};
        }
        rows[key][column] = quantity_or_null(find(resource, {"total"}));
      }
    }
  };
  add(array_or_empty(queue, {"status", "flavorsReservation"}), "reserved");
  add(local_queue_usage(queue), "inUse");
  json out = json::array();
  for (const auto& key : order) {
    out.push_back(rows[key]);
  }
  return out;
}

}  // namespace

void local_queue_summary(const cached_object& queue, const view_context&, json& summary) {
  summary["clusterQueue"] = string_or(queue.body(), {"spec", "clusterQueue"});
  json counts = json::object();
  for (const char* field : {"pendingWorkloads", "reservingWorkloads", "admittedWorkloads"}) {
    auto value = get_int(queue.body(), {"status", field});
    counts[field] = or_null(value);
  }
  summary["workloads"] = std::move(counts);
}

void local_queue_details(const cached_object& queue, const view_context& context, details_view& view,
                         const position_lookup& positions) {
  const packed_value& body = queue.body();
  note_wrong_types(body,
                   {{"spec", field_type::object},
                    {"spec.clusterQueue", field_type::string},
                    {"spec.stopPolicy", field_type::string},
                    {"status", field_type::object},
                    {"status.conditions", field_type::array},
                    {"status.flavorsUsage", field_type::array},
                    {"status.flavorUsage", field_type::array},
                    {"status.pendingWorkloads", field_type::integer},
                    {"status.reservingWorkloads", field_type::integer},
                    {"status.admittedWorkloads", field_type::integer}},
                   view);
  std::string cluster_name = string_or(body, {"spec", "clusterQueue"});
  object_ptr cluster = cluster_name.empty() ? nullptr : context.store.get(cluster_queue_kind, "", cluster_name);
  if (cluster_name.empty()) {
    view.blocks["clusterQueueLink"] = nullptr;
  } else {
    json link = link_to(context, cluster_queue_kind, "", cluster_name);
    const bool kueue_says_missing = local_queue_state(queue, context).reason == "ClusterQueueDoesNotExist";
    // Missing only when Kueue says so or the whole list is read: never a guess.
    link["exists"] = exists_json(cluster != nullptr, context, cluster_queue_kind, kueue_says_missing);
    link["state"] = cluster ? json(cluster_queue_state(*cluster, context).label) : json(nullptr);
    view.blocks["clusterQueueLink"] = std::move(link);
    view.link(context, "clusterQueue", view.blocks["clusterQueueLink"]["apiVersion"].get<std::string>(), "ClusterQueue",
              "", cluster_name);
  }
  view.blocks["stopPolicy"] = stop_policy_of(body);
  view.blocks["usage"] = usage_rows(body);
  view.blocks["waiting"] = waiting_list({{std::string(queue.namespace_), std::string(queue.name)}}, context, positions,
                                        position_in::local_queue);
  view.blocks["conditions"] = status_conditions_json(body);
}

}  // namespace sextant::kueue
