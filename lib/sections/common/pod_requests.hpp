#pragma once
// What the pods of a pod template ask for, read the way Kueue and the scheduler read it: for
// the pod sets of Kueue Workloads and, alike, JobSet replicated jobs, Ray worker groups and
// KServe predictors.
#include <cstdint>

#include "store/packed_value.hpp"

namespace sextant {

// What one pod of a pod spec requests: the containers' requests summed (a limit stands in for a
// missing request), each init container's taken when larger, plus the pod overhead. As
// {resource: quantity text}.
json pod_requests(const packed_value& pod_spec);

// `per_pod` ({resource: quantity text}) times `count`.
json scaled_requests(const json& per_pod, std::int64_t count);

}  // namespace sextant
