#include "sections/dra/pod_claims.hpp"

#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/words.hpp"
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"

namespace sextant::dra {
namespace {

void resolve(pod_claim& entry, const cached_object& pod, const view_context& context, bool generated) {
  entry.claim = context.store.get(claim_kind, pod.namespace_, entry.claim_name);
  if (entry.claim) {
    // A generated claim must be the pod's own; a claim of that name owned by another is not.
    bool mine = !generated || pod.uid.empty() || owned_by_uid(entry.claim->body(), pod.uid);
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

pod_claim_reading read_pod_claim(const pod_claim& entry, const view_context& context) {
  pod_claim_reading reading;
  auto fact = [&reading](std::string id, std::string text) {
    reading.fact = std::move(id);
    reading.text = std::move(text);
  };
  const std::string pod_claim_words = "pod claim " + entry.name;
  const std::string claim_words = "claim " + entry.claim_name;
  switch (entry.resolution) {
    case claim_resolution::found: {
      const packed_value& claim = entry.claim->body();
      reading.state = claim_state(*entry.claim, context);
      reading.allocated = claim_allocation(claim) != nullptr;
      if (being_deleted(claim)) {
        fact("claim-deleting", claim_words + " is being deleted");
      } else if (!reading.allocated) {
        fact("claim-not-allocated", claim_words + " is not allocated");
        if (list_complete(context, device_class_kind)) {
          for (const std::string& device_class : device_classes_of(member(claim, "spec"))) {
            if (!context.store.get(device_class_kind, "", device_class)) {
              fact("device-class-missing",
                   claim_words + " asks for device class " + device_class + ", which does not exist");
              reading.device_class = device_class;
              break;
            }
          }
        }
      }
      return reading;
    }
    case claim_resolution::not_created:
      fact("claim-not-created", pod_claim_words + " is not created yet from template " + entry.template_name);
      reading.state = {"Not created yet", "ClaimNotCreated", capitalized_sentence(reading.text)};
      return reading;
    case claim_resolution::not_found:
      fact("claim-not-found", claim_words + " does not exist");
      reading.state = {"Not found", "ClaimNotFound", capitalized_sentence(reading.text)};
      return reading;
    case claim_resolution::not_owned:
      fact("claim-not-owned", claim_words + " was not created for this pod (the pod is not its owner)");
      reading.state = {"Not created for this pod", "NotOwner",
                       capitalized_sentence(reading.text) + " The pod cannot use it."};
      return reading;
    case claim_resolution::no_source:
      fact("claim-source-missing", pod_claim_words + " names neither a claim nor a template");
      reading.state = {"Invalid", "NoSource", capitalized_sentence(reading.text)};
      return reading;
    case claim_resolution::cannot_tell:
      reading.state = {std::string(cannot_tell), "ClaimListIncomplete",
                       "Claim " + entry.claim_name + " is not among the claims read. " +
                           may_be_incomplete("The Resource Claim list", incomplete_reason(context, claim_kind))};
      return reading;
    case claim_resolution::not_needed:
      reading.state = {"Not needed", "NoClaimNeeded", "The pod's status records that no claim was needed."};
      return reading;
  }
  reading.state = {std::string(cannot_tell), "", ""};
  return reading;
}

}  // namespace sextant::dra
