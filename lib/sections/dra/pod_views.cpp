// What DRA adds to a Pod's details: its claims, and the DRA reasons it waits.
#include "sections/common/conditions.hpp"
#include "sections/common/words.hpp"
#include "sections/core/pod_reading.hpp"
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/pod_claims.hpp"
#include "sections/dra/scheduler_reasons.hpp"

namespace sextant::dra {
namespace {

bool reserved_for_pod(const packed_value& claim, const cached_object& pod) {
  for (const claim_consumer& consumer : reserved_for(claim)) {
    if (consumer.resource == "pods" && consumer.name == pod.name && (consumer.uid.empty() || consumer.uid == pod.uid)) {
      return true;
    }
  }
  return false;
}

// Which containers use a pod claim, and for which of its requests.
json claim_users(const packed_value& pod, const std::string& claim) {
  json out = json::array();
  for (const char* field : {"initContainers", "containers"}) {
    for (const packed_value& container : array_or_empty(pod, {"spec", field})) {
      for (const packed_value& use : array_or_empty(container, {"resources", "claims"})) {
        if (string_or(use, {"name"}) == claim) {
          out.push_back({{"container", string_or(container, {"name"})}, {"request", string_or_null(use, {"request"})}});
        }
      }
    }
  }
  return out;
}

json claim_entry(const pod_claim& entry, const cached_object& pod, const view_context& context) {
  object_state state = read_pod_claim(entry, context).state;
  bool known = !entry.claim_name.empty();
  return json{{"name", or_null(entry.name)},
              {"claimName", known ? json(entry.claim_name) : json(nullptr)},
              {"source", or_null(entry.source)},
              {"templateName", or_null(entry.template_name)},
              {"state", state.label},
              {"reason", or_null(state.reason)},
              {"message", state.message},
              {"reservedForPod", entry.claim ? reserved_for_pod(entry.claim->body(), pod) : false},
              {"usedBy", claim_users(pod.body(), entry.name)},
              {"path", known && entry.resolution != claim_resolution::not_found
                           ? context.path_json(claim_kind, pod.namespace_, entry.claim_name)
                           : json(nullptr)}};
}

// What the objects show when the scheduler wrote nothing (it writes no condition for a claim
// that is missing or not created yet), and facts about the claims it may not have reached. An
// unallocated claim is no fact of its own: the scheduler's words say why it is not allocated.
std::vector<dra_reason> reasons_from_objects(const std::vector<pod_claim>& claims, const view_context& context) {
  std::vector<dra_reason> out;
  for (const pod_claim& entry : claims) {
    pod_claim_reading reading = read_pod_claim(entry, context);
    if (reading.fact.empty() || reading.fact == "claim-not-allocated") {
      continue;
    }
    dra_reason reason;
    reason.source = "objects";
    reason.claim = entry.claim_name;
    reason.id = reading.fact;
    reason.text = capitalized_sentence(reading.text);
    reason.device_class = reading.device_class;
    out.push_back(std::move(reason));
  }
  return out;
}

// An object fact repeats the scheduler when it names the same reason for the same claim (or
// the scheduler named no claim, as in "ResourceClaim not created yet").
bool told_by_scheduler(const dra_reason& fact, const std::vector<dra_reason>& told) {
  for (const dra_reason& reason : told) {
    if (reason.id == fact.id && (reason.claim.empty() || reason.claim == fact.claim) &&
        (reason.device_class.empty() || reason.device_class == fact.device_class)) {
      return true;
    }
  }
  return false;
}

}  // namespace

void extend_pod_details(const cached_object& pod, const view_context& context, details_view& view) {
  std::vector<pod_claim> claims = pod_claims(pod, context);
  if (!claims.empty()) {
    json entries = json::array();
    for (const pod_claim& entry : claims) {
      entries.push_back(claim_entry(entry, pod, context));
      if (!entry.claim_name.empty() && entry.resolution != claim_resolution::not_found) {
        view.link(context, "resourceClaim", entry.claim ? entry.claim->api_version : context.api_version(claim_kind),
                  "ResourceClaim", pod.namespace_, entry.claim_name);
      }
      if (!entry.template_name.empty()) {
        view.link(context, "resourceClaimTemplate", context.api_version(template_kind), "ResourceClaimTemplate",
                  pod.namespace_, entry.template_name);
      }
    }
    view.blocks["claims"] = std::move(entries);
  }

  // Why it waits: only for a pod the scheduler is considering (gated pods are not).
  if (!core::waiting_for_scheduler(pod.body()) || core::scheduling_gated(pod.body())) {
    return;
  }
  const packed_value* condition = core::not_scheduled_condition(pod.body());
  std::string message = condition_message(condition);
  std::vector<dra_reason> reasons = recognise_scheduler_message(message).reasons;
  std::size_t told = reasons.size();
  for (dra_reason& fact : reasons_from_objects(claims, context)) {
    if (!told_by_scheduler(fact, reasons)) {
      reasons.push_back(std::move(fact));
    }
  }
  if (reasons.empty()) {
    return;
  }
  for (const dra_reason& reason : reasons) {
    core::add_waiting_reason(pod, view, reason.to_json());
  }
  if (told == 0) {
    view.note(
        "The scheduler wrote no DRA reason for this pod (it writes none while a claim is missing or not "
        "created yet); the reasons shown come from the objects.");
  }
}

}  // namespace sextant::dra
