#include "sections/dra/pod_claims.hpp"

#include "sections/dra/dra_section.hpp"

namespace sextant::dra {
namespace {

bool owned_by(const packed_value& claim, const std::string& uid) {
  for (const packed_value& owner : array_or_empty(claim, {"metadata", "ownerReferences"})) {
    if (string_or(owner, {"uid"}) == uid) {
      return true;
    }
  }
  return false;
}

void resolve(pod_claim& entry, const cached_object& pod, const view_context& context, bool generated) {
  entry.claim = context.store.get(claim_kind, pod.namespace_, entry.claim_name);
  if (entry.claim) {
    // A generated claim must be the pod's own; a claim of that name owned by another is not.
    bool mine = !generated || pod.uid.empty() || owned_by(entry.claim->body(), pod.uid);
    entry.resolution = mine ? claim_resolution::found : claim_resolution::not_owned;
    return;
  }
  entry.resolution =
      context.store.completeness(claim_kind).complete() ? claim_resolution::not_found : claim_resolution::cannot_tell;
}

}  // namespace

std::vector<pod_claim> pod_claims(const cached_object& pod, const view_context& context) {
  std::vector<pod_claim> out;
  const packed_value& body = pod.body();
  const packed_value& statuses = array_or_empty(body, {"status", "resourceClaimStatuses"});
  for (const packed_value& spec_claim : array_or_empty(body, {"spec", "resourceClaims"})) {
    pod_claim entry;
    entry.name = string_or(spec_claim, {"name"});
    auto direct = get_string(spec_claim, {"resourceClaimName"});
    auto from_template = get_string(spec_claim, {"resourceClaimTemplateName"});
    if (direct && !direct->empty()) {
      entry.source = "direct";
      entry.claim_name = *direct;
      resolve(entry, pod, context, false);
    } else if (from_template && !from_template->empty()) {
      entry.source = "template";
      entry.template_name = *from_template;
      const packed_value* status = nullptr;
      for (const packed_value& candidate : statuses) {
        if (string_or(candidate, {"name"}) == entry.name) {
          status = &candidate;
          break;
        }
      }
      if (status == nullptr) {
        entry.resolution = claim_resolution::not_created;
      } else if (string_or(*status, {"resourceClaimName"}).empty()) {
        entry.resolution = claim_resolution::not_needed;
      } else {
        entry.claim_name = string_or(*status, {"resourceClaimName"});
        resolve(entry, pod, context, true);
      }
    } else {
      entry.resolution = claim_resolution::no_source;
    }
    out.push_back(std::move(entry));
  }
  if (auto extended = get_string(body, {"status", "extendedResourceClaimStatus", "resourceClaimName"});
      extended && !extended->empty()) {
    pod_claim entry;
    entry.source = "extendedResource";
    entry.claim_name = *extended;
    resolve(entry, pod, context, true);
    out.push_back(std::move(entry));
  }
  return out;
}

bool waiting_for_scheduler(const packed_value& pod) {
  return string_or(pod, {"status", "phase"}) == "Pending" && string_or(pod, {"spec", "nodeName"}).empty() &&
         find(pod, {"metadata", "deletionTimestamp"}) == nullptr;
}

bool scheduling_gated(const packed_value& pod) {
  return !array_or_empty(pod, {"spec", "schedulingGates"}).empty();
}

const packed_value* not_scheduled_condition(const packed_value& pod) {
  const packed_value* scheduled = find_condition(array_or_empty(pod, {"status", "conditions"}), "PodScheduled");
  if (scheduled == nullptr || string_or(*scheduled, {"status"}) != "False") {
    return nullptr;
  }
  return scheduled;
}

}  // namespace sextant::dra
