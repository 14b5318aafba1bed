// Cohorts: their own quotas, their parent, their members, without usage (Kueue keeps none).
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/quota_rows.hpp"

namespace sextant::kueue {

void cohort_details(const cached_object& cohort, const view_context& context, details_view& view) {
  const packed_value& body = cohort.body();
  std::string parent = parent_of(body);
  if (parent.empty()) {
    view.blocks["parent"] = nullptr;
  } else {
    json link = link_to(context, cohort_kind, "", parent);
    link["exists"] = exists_json(context, cohort_kind, "", parent);
    view.blocks["parent"] = std::move(link);
    view.link(context, "parent", view.blocks["parent"]["apiVersion"].get<std::string>(), "Cohort", "", parent);
  }
  // Borrowing and lending limits bind only below a parent.
  view.blocks["quota"] = quota_rows(body, !parent.empty());

  json members = json::array();
  for (const object_ptr& queue : context.store.list(cluster_queue_kind)) {
    if (cohort_of(queue->body()) == cohort.name) {
      json link = link_json(context, *queue);
      link["state"] = cluster_queue_state(*queue, context).label;
      members.push_back(std::move(link));
      view.link(context, "member", *queue);
    }
  }
  view.blocks["members"] = std::move(members);
  json children = json::array();
  for (const object_ptr& child : context.store.list(cohort_kind)) {
    if (parent_of(child->body()) == cohort.name) {
      children.push_back(link_json(context, *child));
      view.link(context, "child", *child);
    }
  }
  view.blocks["children"] = std::move(children);
  if (auto share = find(body, {"status", "fairSharing", "weightedShare"})) {
    view.blocks["fairSharing"] = {{"weightedShare", *share}};
  }
  view.note("A Cohort's quota adds to its member Cluster Queues'; Kueue reports usage on the Cluster Queues only.");
}

}  // namespace sextant::kueue
