// What DRA adds to a Pod's details: its claims, and the DRA reasons it waits.
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/pod_claims.hpp"
#include "sections/dra/scheduler_reasons.hpp"

namespace sextant::dra {
namespace {

object_state entry_state(const pod_claim& entry, const view_context& context) {
  switch (entry.resolution) {
    case claim_resolution::found:
      return claim_state(*entry.claim, context);
    case claim_resolution::not_created:
      return {"Not created yet", "ClaimNotCreated",
              "No claim has been created for this pod from template " + entry.template_name + " yet."};
    case claim_resolution::not_found:
      return {"Not found", "ClaimNotFound", "Claim " + entry.claim_name + " does not exist."};
    case claim_resolution::cannot_tell:
      return {"cannot tell", "ClaimListIncomplete",
              "Claim " + entry.claim_name + " is not among the claims read, and the claim list is not complete."};
    case claim_resolution::not_needed:
      return {"Not needed", "NoClaimNeeded", "The pod's status records that no claim was needed."};
    case claim_resolution::not_owned:
      return {"Not created for this pod", "NotOwner",
              "Claim " + entry.claim_name + " exists but is not owned by this pod, so the pod cannot use it."};
    case claim_resolution::no_source:
      return {"Invalid", "NoSource", "The pod claim names neither a claim nor a template."};
  }
  return {"cannot tell", "", ""};
}

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
  object_state state = entry_state(entry, context);
  bool known = !entry.claim_name.empty();
  return json{{"name", entry.name.empty() ? json(nullptr) : json(entry.name)},
              {"claimName", known ? json(entry.claim_name) : json(nullptr)},
              {"source", entry.source.empty() ? json(nullptr) : json(entry.source)},
              {"templateName", entry.template_name.empty() ? json(nullptr) : json(entry.template_name)},
              {"state", state.label},
              {"reason", state.reason.empty() ? json(nullptr) : json(state.reason)},
              {"message", state.message},
              {"reservedForPod", entry.claim ? reserved_for_pod(entry.claim->body(), pod) : false},
              {"usedBy", claim_users(pod.body(), entry.name)},
              {"path", known && entry.resolution != claim_resolution::not_found
                           ? context.path_json(claim_kind, pod.namespace_, entry.claim_name)
                           : json(nullptr)}};
}

// What the objects show when the scheduler wrote nothing (it writes no condition for a claim
// that is missing or not created yet), and facts about the claims it may not have reached.
std::vector<dra_reason> reasons_from_objects(const std::vector<pod_claim>& claims, const view_context& context) {
  std::vector<dra_reason> out;
  bool classes_complete = context.store.completeness(device_class_kind).complete();
  for (const pod_claim& entry : claims) {
    dra_reason reason;
    reason.source = "objects";
    reason.claim = entry.claim_name;
    switch (entry.resolution) {
      case claim_resolution::not_created:
        reason.id = "claim-not-created";
        reason.text = "Pod claim " + entry.name + " is not created yet from template " + entry.template_name + ".";
        break;
      case claim_resolution::not_found:
        reason.id = "claim-not-found";
        reason.text = "Claim " + entry.claim_name + " does not exist.";
        break;
      case claim_resolution::not_owned:
        reason.id = "claim-not-owned";
        reason.text = "Claim " + entry.claim_name + " was not created for this pod (the pod is not its owner).";
        break;
      case claim_resolution::no_source:
        reason.id = "claim-source-missing";
        reason.text = "Pod claim " + entry.name + " names neither a claim nor a template.";
        break;
      case claim_resolution::found:
        if (claim_deleting(entry.claim->body())) {
          reason.id = "claim-deleting";
          reason.text = "Claim " + entry.claim_name + " is being deleted.";
        } else if (claim_allocation(entry.claim->body()) == nullptr && classes_complete) {
          for (const std::string& device_class : device_classes_of(member(entry.claim->body(), "spec"))) {
            if (!context.store.get(device_class_kind, "", device_class)) {
              reason.id = "device-class-missing";
              reason.device_class = device_class;
              reason.text =
                  "Claim " + entry.claim_name + " asks for device class " + device_class + ", which does not exist.";
              break;
            }
          }
        }
        break;
      case claim_resolution::cannot_tell:
      case claim_resolution::not_needed:
        break;
    }
    if (!reason.id.empty()) {
      out.push_back(std::move(reason));
    }
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
        view.link(context, "resourceClaim",
                  entry.claim ? entry.claim->api_version : dra_api_version(context, claim_kind), "ResourceClaim",
                  pod.namespace_, entry.claim_name);
      }
      if (!entry.template_name.empty()) {
        view.link(context, "resourceClaimTemplate", dra_api_version(context, template_kind), "ResourceClaimTemplate",
                  pod.namespace_, entry.template_name);
      }
    }
    view.blocks["claims"] = std::move(entries);
  }

  // Why it waits: only for a pod the scheduler is considering (gated pods are not).
  if (!waiting_for_scheduler(pod.body()) || scheduling_gated(pod.body())) {
    return;
  }
  const packed_value* condition = not_scheduled_condition(pod.body());
  std::string message = condition == nullptr ? std::string() : string_or(*condition, {"message"});
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
  json& waiting = view.blocks["waiting"];
  if (!waiting.is_object()) {
    // Core shows the Unschedulable condition; DRA's binding failures and timeouts come as
    // SchedulerError, and a missing or uncreated claim gets no condition at all.
    std::string since = condition != nullptr ? string_or(*condition, {"lastTransitionTime"})
                                             : string_or(pod.body(), {"metadata", "creationTimestamp"});
    waiting = {{"message", message.empty() ? json(nullptr) : json(message)},
               {"since", since.empty() ? json(nullptr) : json(since)},
               {"reasons", json::array()}};
  }
  if (!waiting["reasons"].is_array()) {
    waiting["reasons"] = json::array();
  }
  for (const dra_reason& reason : reasons) {
    waiting["reasons"].push_back(reason.to_json());
  }
  if (told == 0) {
    view.note(
        "The scheduler wrote no DRA reason for this pod (it writes none while a claim is missing or not "
        "created yet); the reasons shown come from the objects.");
  }
}

}  // namespace sextant::dra
