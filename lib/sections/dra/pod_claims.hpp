#pragma once
// A pod's claims, resolved the way the kubelet and scheduler resolve them: a direct claim by
// its name, a claim made from a template through `status.resourceClaimStatuses` (never by
// guessing the generated name), and the 1.34 extended-resource claim through
// `status.extendedResourceClaimStatus`.
#include <string>
#include <vector>

#include "sections/view_context.hpp"
#include "store/object.hpp"

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

// Whether a pod is waiting to be scheduled: Pending, not bound, not being deleted.
bool waiting_for_scheduler(const packed_value& pod);
bool scheduling_gated(const packed_value& pod);
// The PodScheduled=False condition, whatever its reason (Unschedulable or SchedulerError).
const packed_value* not_scheduled_condition(const packed_value& pod);

}  // namespace sextant::dra
