#include "sections/kueue/visibility.hpp"

#include "sections/kueue/kueue_section.hpp"
#include "util/masking/secrets.hpp"

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

position_reading position_from_visibility(const cached_object& workload, const view_context& context) {
  const std::string queue_name = string_or(workload.body(), {"spec", "queueName"});
  object_ptr local_queue = context.store.get(local_queue_kind, workload.namespace_, queue_name);
  if (!local_queue) {
    return {std::nullopt, "its Local Queue " + queue_name + " is not known, so neither is its Cluster Queue"};
  }
  if (context.documents == nullptr) {
    return {std::nullopt, "positions come from Kueue's visibility API, which is read only from a live cluster"};
  }
  const std::string cluster_queue = string_or(local_queue->body(), {"spec", "clusterQueue"});
  const document_key key{pending_workloads_document, "", cluster_queue};
  const polled_document_entry* summary = context.document(key);
  if (summary == nullptr) {
    const std::string failure = context.document_missing_because(key);
    if (failure.empty()) {
      return {std::nullopt, "not read yet from Kueue's visibility API (read every 15 s while the queue is looked at)"};
    }
    // The failure can quote what the API server answered: masked as every text is.
    return {std::nullopt, "Kueue's visibility API cannot be read: " + masking::operator_text(failure)};
  }
  for (const packed_value& item : array_or_empty(summary->body(), {"items"})) {
    if (string_or(item, {"metadata", "namespace"}) != workload.namespace_ ||
        string_or(item, {"metadata", "name"}) != workload.name) {
      continue;
    }
    return position_reading{
        queue_position{get_int(item, {"positionInClusterQueue"}), get_int(item, {"positionInLocalQueue"})}};
  }
  return {std::nullopt, "Kueue's visibility API did not list it when read at " + format_rfc3339(summary->read_at) +
                            " (past its limit, or it began waiting since)"};
}

}  // namespace sextant::kueue
