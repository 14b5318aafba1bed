// Resource Flavors, Admission Checks and Workload Priority Classes: small kinds the queues
// point at; their details say which queues use them.
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {
namespace {

bool uses_flavor(const packed_value& cluster_queue, std::string_view flavor) {
  for (const packed_value& group : array_or_empty(cluster_queue, {"spec", "resourceGroups"})) {
    for (const packed_value& entry : array_or_empty(group, {"flavors"})) {
      if (string_or(entry, {"name"}) == flavor) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

void resource_flavor_details(const cached_object& flavor, const view_context& context, details_view& view) {
  const packed_value& body = flavor.body();
  view.blocks["nodeLabels"] = object_or_empty(body, {"spec", "nodeLabels"});
  view.blocks["nodeTaints"] = array_or_empty(body, {"spec", "nodeTaints"});
  view.blocks["tolerations"] = array_or_empty(body, {"spec", "tolerations"});
  std::string topology = string_or(body, {"spec", "topologyName"});
  view.blocks["topologyName"] = or_null(topology);
  json queues = json::array();
  for (const object_ptr& queue : context.store.list(cluster_queue_kind)) {
    if (uses_flavor(queue->body(), flavor.name)) {
      queues.push_back(link_json(context, *queue));
      view.link(context, "clusterQueue", *queue);
    }
  }
  view.blocks["clusterQueues"] = std::move(queues);
}

void admission_check_details(const cached_object& check, const view_context& context, details_view& view) {
  const packed_value& body = check.body();
  view.blocks["controllerName"] = string_or(body, {"spec", "controllerName"});
  const packed_value* parameters = find(body, {"spec", "parameters"});
  view.blocks["parameters"] = parameters != nullptr ? *parameters : json(nullptr);
  json queues = json::array();
  for (const object_ptr& queue : context.store.list(cluster_queue_kind)) {
    for (const std::string& name : admission_checks_of(queue->body())) {
      if (name == check.name) {
        queues.push_back(link_json(context, *queue));
        view.link(context, "clusterQueue", *queue);
      }
    }
  }
  view.blocks["clusterQueues"] = std::move(queues);
  view.blocks["conditions"] = status_conditions_json(body);
}

void priority_class_summary(const cached_object& priority_class, const view_context&, json& summary) {
  auto value = get_int(priority_class.body(), {"value"});
  summary["value"] = or_null(value);
  summary["description"] = string_or(priority_class.body(), {"description"});
}

}  // namespace sextant::kueue
