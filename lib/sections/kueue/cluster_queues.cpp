// Cluster Queues: quota against usage, their Local Queues, and the Workloads waiting in them.
#include <cmath>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/quota_rows.hpp"
#include "sections/kueue/waiting_list.hpp"
#include "util/quantity.hpp"

namespace sextant::kueue {
namespace {

// status.flavorsReservation / flavorsUsage entry for one flavor and resource, or nullptr.
const packed_value* usage_entry(const packed_value& queue, const char* field, const std::string& flavor,
                                const std::string& resource) {
  for (const packed_value& flavor_usage : array_or_empty(queue, {"status", field})) {
    if (string_or(flavor_usage, {"name"}) != flavor) {
      continue;
    }
    for (const packed_value& entry : array_or_empty(flavor_usage, {"resources"})) {
      if (string_or(entry, {"name"}) == resource) {
        return &entry;
      }
    }
  }
  return nullptr;
}

json share_percent(const json& nominal, const json& reserved) {
  if (!nominal.is_string() || !reserved.is_string()) {
    return nullptr;
  }
  auto quota = parse_quantity(nominal.get_ref<const std::string&>());
  auto used = parse_quantity(reserved.get_ref<const std::string&>());
  if (!quota || !used || quota->value <= 0) {
    return nullptr;
  }
  return static_cast<double>(std::round(used->value / quota->value * 1000.0L) / 10.0L);
}

json counters(const packed_value& queue) {
  json out = json::object();
  for (const char* field : {"pendingWorkloads", "reservingWorkloads", "admittedWorkloads"}) {
    auto value = get_int(queue, {"status", field});
    out[field] = or_null(value);
  }
  return out;
}

}  // namespace

json quota_table(const cached_object& queue, const view_context&) {
  const packed_value& body = queue.body();
  json rows = quota_rows(body, !cohort_of(body).empty());
  auto fill = [&body](json& row) {
    std::string flavor = row["flavor"].get<std::string>();
    std::string resource = row["resource"].get<std::string>();
    const packed_value* reserved = usage_entry(body, "flavorsReservation", flavor, resource);
    const packed_value* used = usage_entry(body, "flavorsUsage", flavor, resource);
    row["reserved"] = reserved != nullptr ? quantity_or_null(find(*reserved, {"total"})) : json(nullptr);
    row["borrowed"] = reserved != nullptr ? quantity_or_null(find(*reserved, {"borrowed"})) : json(nullptr);
    if (reserved != nullptr && row["borrowed"].is_null() && row["reserved"].is_string()) {
      row["borrowed"] = "0";  // Kueue omits borrowed when nothing is borrowed
    }
    row["sharePercent"] = share_percent(row["nominal"], row["reserved"]);
    row["inUse"] = used != nullptr ? quantity_or_null(find(*used, {"total"})) : json(nullptr);
  };
  for (json& row : rows) {
    fill(row);
  }
  // Usage of a flavor or resource the spec no longer lists (being drained after an edit).
  for (const char* field : {"flavorsReservation", "flavorsUsage"}) {
    for (const packed_value& flavor_usage : array_or_empty(body, {"status", field})) {
      for (const packed_value& entry : array_or_empty(flavor_usage, {"resources"})) {
        std::string flavor = string_or(flavor_usage, {"name"});
        std::string resource = string_or(entry, {"name"});
        bool listed = false;
        for (const json& row : rows) {
          listed = listed || (row["flavor"] == flavor && row["resource"] == resource);
        }
        if (!listed) {
          json row = {{"flavor", flavor},
                      {"resource", resource},
                      {"nominal", nullptr},
                      {"borrowingLimit", nullptr},
                      {"lendingLimit", nullptr}};
          fill(row);
          rows.push_back(std::move(row));
        }
      }
    }
  }
  return rows;
}

void cluster_queue_summary(const cached_object& queue, const view_context&, json& summary) {
  std::string cohort = cohort_of(queue.body());
  summary["cohort"] = or_null(cohort);
  summary["workloads"] = counters(queue.body());
}

void cluster_queue_details(const cached_object& queue, const view_context& context, details_view& view,
                           const position_lookup& positions) {
  const packed_value& body = queue.body();
  note_wrong_types(body,
                   {{"spec", field_type::object},
                    {"spec.cohortName", field_type::string},
                    {"spec.cohort", field_type::string},
                    {"spec.stopPolicy", field_type::string},
                    {"spec.resourceGroups", field_type::array},
                    {"status", field_type::object},
                    {"status.conditions", field_type::array},
                    {"status.flavorsReservation", field_type::array},
                    {"status.flavorsUsage", field_type::array},
                    {"status.pendingWorkloads", field_type::integer},
                    {"status.reservingWorkloads", field_type::integer},
                    {"status.admittedWorkloads", field_type::integer}},
                   view);
  std::string cohort = cohort_of(body);
  if (cohort.empty()) {
    view.blocks["cohortLink"] = nullptr;
    view.note("Not in a cohort: it neither borrows nor lends quota.");
  } else {
    json link = link_to(context, cohort_kind, "", cohort);
    // A cohort named by queues needs no Cohort object: Kueue makes an implicit one.
    link["exists"] = exists_json(context, cohort_kind, "", cohort);
    view.blocks["cohortLink"] = std::move(link);
    view.link(context, "cohort", view.blocks["cohortLink"]["apiVersion"].get<std::string>(), "Cohort", "", cohort);
  }
  view.blocks["stopPolicy"] = stop_policy_of(body);
  view.blocks["quota"] = quota_table(queue, context);
  view.blocks["workloads"] = counters(body);

  json flavors = json::array();
  for (const packed_value& group : array_or_empty(body, {"spec", "resourceGroups"})) {
    for (const packed_value& flavor : array_or_empty(group, {"flavors"})) {
      std::string name = string_or(flavor, {"name"});
      json link = link_to(context, resource_flavor_kind, "", name);
      link["exists"] = exists_json(context, resource_flavor_kind, "", name);
      flavors.push_back(std::move(link));
    }
  }
  view.blocks["flavors"] = std::move(flavors);

  json checks = json::array();
  for (const std::string& name : admission_checks_of(body)) {
    json link = link_to(context, admission_check_kind, "", name);
    object_ptr check = context.store.get(admission_check_kind, "", name);
    link["exists"] = exists_json(check != nullptr, context, admission_check_kind);
    link["state"] = check ? json(admission_check_state(*check, context).label) : json(nullptr);
    checks.push_back(std::move(link));
  }
  view.blocks["admissionChecks"] = std::move(checks);

  std::vector<object_ptr> local_queues = local_queues_of(queue.name, context);
  json locals = json::array();
  std::vector<queue_ref> refs;
  for (const object_ptr& local : local_queues) {
    refs.emplace_back(local->namespace_, local->name);
    json link = link_json(context, *local);
    link["state"] = local_queue_state(*local, context).label;
    locals.push_back(std::move(link));
    view.link(context, "localQueue", *local);
  }
  view.blocks["localQueues"] = std::move(locals);
  view.blocks["waiting"] = waiting_list(refs, context, positions, position_in::cluster_queue);
  if (auto share = find(body, {"status", "fairSharing", "weightedShare"})) {
    view.blocks["fairSharing"] = {{"weightedShare", *share}};
  }
  view.blocks["conditions"] = status_conditions_json(body);
}

}  // namespace sextant::kueue
