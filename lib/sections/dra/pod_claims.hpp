#pragma once
// A pod's claims, resolved the way the kubelet and scheduler resolve them: a direct claim by
// its name, a claim made from a template through `status.resourceClaimStatuses` (never by
// guessing the generated name), and the 1.34 extended-resource claim through
// `status.extendedResourceClaimStatus`.
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::dra {

enum class claim_resolution {
  found,        // the claim is in the cache
  not_created,  // from a template, and no claim was recorded yet
  not_found,    // the named claim does not exist
  cannot_tell,  // not in the cache, and the claim list is not complete
  not_needed,   // the status records that no claim was needed
  not_owned,    // a generated claim that is not owned by this pod
  no_source,    // the pod names neither a claim nor a template
};

struct pod_claim {
  std::string name;           // spec.resourceClaims[].name
  std::string source;         // "direct", "template", "extendedResource", or empty
  std::string template_name;  // for "template"
  std::string claim_name;     // the claim's own name, when known
  claim_resolution resolution = claim_resolution::cannot_tell;
  object_ptr claim;  // when found (also for not_owned)
};

std::vector<pod_claim> pod_claims(const cached_object& pod, const view_context& context);

// One reading of a pod claim, which every view of it renders: the pod's claims block (state),
// the reasons its details give for waiting, and the `dra` problem (fact and text).
struct pod_claim_reading {
  object_state state;        // for the claims block: a found claim's own state, else the resolution's
  std::string fact;          // what holds the pod back, as read from the objects: "claim-not-created",
                             // "claim-not-found", "claim-not-owned", "claim-source-missing",
                             // "claim-deleting", "device-class-missing", "claim-not-allocated"; or empty
  std::string text;          // the fact as a phrase: "claim gpu-claim does not exist"
  std::string device_class;  // for device-class-missing
  bool allocated = false;    // the claim is found and allocated
};
pod_claim_reading read_pod_claim(const pod_claim& entry, const view_context& context);

}  // namespace sextant::dra
