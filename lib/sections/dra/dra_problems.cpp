// Problem category `dra`: a pod stuck Pending because a claim it needs is not allocated, does
// not exist or was not created yet.
//
// Gated pods are not judged (the scheduler does not consider them). An unallocated claim counts
// only when the scheduler names a DRA reason: otherwise the pod may well wait for CPU or a node,
// and the claim is simply not allocated yet. A missing or uncreated claim counts on its own,
// because the scheduler writes nothing for those. Only clusters with a Device Class are judged.
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/pod_claims.hpp"
#include "sections/dra/scheduler_reasons.hpp"

namespace sextant::dra {

std::vector<finding> evaluate_pod(const cached_object& pod, const view_context& context) {
  const packed_value& body = pod.body();
  if (!waiting_for_scheduler(body) || scheduling_gated(body) || context.store.count(device_class_kind) == 0) {
    return {};
  }
  std::vector<pod_claim> claims = pod_claims(pod, context);
  if (claims.empty()) {
    return {};
  }
  const packed_value* condition = not_scheduled_condition(body);
  scheduler_reading scheduler =
      recognise_scheduler_message(condition == nullptr ? std::string() : string_or(*condition, {"message"}));
  bool dra_named = !scheduler.reasons.empty();
  std::vector<std::string> parts;
  for (const pod_claim& entry : claims) {
    switch (entry.resolution) {
      case claim_resolution::not_created:
        parts.push_back("claim " + entry.name + " is not created yet from template " + entry.template_name);
        break;
      case claim_resolution::not_found:
        parts.push_back("claim " + entry.claim_name + " does not exist");
        break;
      case claim_resolution::found:
        if (dra_named && claim_allocation(entry.claim->body()) == nullptr) {
          parts.push_back("claim " + entry.claim_name + " is not allocated");
        }
        break;
      default:
        break;
    }
  }
  if (parts.empty()) {
    return {};
  }
  std::string message = "Pending: ";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    message += (i == 0 ? "" : "; ") + parts[i];
  }
  message += ".";
  if (dra_named) {
    message += " " + scheduler.reasons.front().text;
  }
  // Since the scheduler's PodScheduled condition began; without one, since the pod was created.
  std::optional<time_point> since;
  if (condition != nullptr) {
    since = parse_rfc3339(string_or(*condition, {"lastTransitionTime"}));
  }
  if (!since) {
    since = parse_rfc3339(string_or(body, {"metadata", "creationTimestamp"}));
  }
  return {finding{"claim-not-ready", since, waiting_threshold, std::move(message)}};
}

}  // namespace sextant::dra
