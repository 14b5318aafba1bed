#include "sections/kueue/visibility.hpp"

#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {

polled_document pending_workloads_polling() {
  polled_document document;
  document.id = pending_workloads_document;
  document.of = cluster_queue_kind;
  document.group = "visibility.kueue.x-k8s.io";
  document.versions = {"v1beta2", "v1beta1"};
  document.resource = "clusterqueues";
  document.subresource = "pendingworkloads";
  document.namespaced = false;
  document.interval = std::chrono::seconds(15);
  return document;
}

std::optional<queue_position> position_from_visibility(const cached_object& workload, const view_context& context) {
  const std::string queue_name = string_or(workload.body(), {"spec", "queueName"});
  object_ptr local_queue = context.store.get(local_queue_kind, workload.namespace_, queue_name);
  if (!local_queue) {
    return std::nullopt;
  }
  const std::string cluster_queue = string_or(local_queue->body(), {"spec", "clusterQueue"});
  const polled_document_entry* summary = context.document({pending_workloads_document, "", cluster_queue});
  if (summary == nullptr) {
    return std::nullopt;
  }
  for (const packed_value& item : array_or_empty(summary->body(), {"items"})) {
    if (string_or(item, {"metadata", "namespace"}) != workload.namespace_ ||
        string_or(item, {"metadata", "name"}) != workload.name) {
      continue;
    }
    return queue_position{get_int(item, {"positionInClusterQueue"}), get_int(item, {"positionInLocalQueue"})};
  }
  return std::nullopt;
}

}  // namespace sextant::kueue
