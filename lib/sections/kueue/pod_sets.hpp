#pragma once
// A Workload's pod sets: what each pod asks for, and what Kueue assigned.
#include "sections/view_context.hpp"
#include "store/object.hpp"
#include "store/packed_value.hpp"

namespace sextant::kueue {

// The member the Workload profile writes into each cached pod set in place of its template.
inline constexpr const char* requests_per_pod_member = "requestsPerPod";

// What one pod of a pod set requests (sections/common/pod_requests.hpp, from its template);
// reads the cached summary when the template is gone.
json pod_set_requests(const packed_value& pod_set);

// The pod sets for a details answer: name, count, requests per pod and in total, and the
// flavors and usage Kueue assigned.
json pod_sets_json(const packed_value& workload);

}  // namespace sextant::kueue
