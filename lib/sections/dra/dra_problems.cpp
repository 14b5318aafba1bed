// Problem category `dra`: a pod stuck Pending because a claim it needs is not allocated, does
// not exist or was not created yet.
//
// Gated pods are not judged (the scheduler does not consider them). An unallocated claim counts
// only when the scheduler names a DRA reason: otherwise the pod may well wait for CPU or a node,
// and the claim is simply not allocated yet. A missing or uncreated claim counts on its own,
// because the scheduler writes nothing for those. Only clusters with a Device Class are judged.
#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/core/pod_reading.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/pod_claims.hpp"
#include "sections/dra/scheduler_reasons.hpp"

namespace sextant::dra {

std::vector<finding> evaluate_pod(const cached_object& pod, const view_context& context) {
  const packed_value& body = pod.body();
  if (!core::waiting_for_scheduler(body) || core::scheduling_gated(body) ||
      context.store.count(device_class_kind) == 0) {
    return {};
  }
  std::vector<pod_claim> claims = pod_claims(pod, context);
  if (claims.empty()) {
    return {};
  }
  const packed_value* condition = core::not_scheduled_condition(body);
  scheduler_reading scheduler = recognise_scheduler_message(condition_message(condition));
  bool dra_named = !scheduler.reasons.empty();
  std::vector<std::string> parts;
  std::vector<pod_claim_reading> told;
  for (const pod_claim& entry : claims) {
    // Rendered from the same reading as the pod's claims block and waiting reasons.
    pod_claim_reading reading = read_pod_claim(entry, context);
    bool counts = reading.fact == "claim-not-created" || reading.fact == "claim-not-found" ||
                  (dra_named && entry.resolution == claim_resolution::found && !reading.allocated);
    if (counts) {
      parts.push_back(reading.text);
      told.push_back(std::move(reading));
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
  // The scheduler's first reason that the objects have not told already: a missing device
  // class is one fact, whether the claim or the scheduler's words show it.
  for (const dra_reason& reason : scheduler.reasons) {
    bool repeats = std::any_of(told.begin(), told.end(), [&reason](const pod_claim_reading& fact) {
      return fact.fact == reason.id && (reason.device_class.empty() || reason.device_class == fact.device_class);
    });
    if (!repeats) {
      message += " " + reason.text;
      break;
    }
  }
  // Since the scheduler's PodScheduled condition began; without one, since the pod was created.
  std::optional<time_point> since = since_of(condition, body);
  return {finding{"claim-not-ready", since, waiting_threshold, std::move(message)}};
}

}  // namespace sextant::dra
