#pragma once
// A section shaped like the GPU Operator's for the watch-planning tests: Cluster Policies, and
// DaemonSets (no page of their own) watched only in the namespace the policies' status names.
#include "sections/section.hpp"
#include "store/served_kinds.hpp"

namespace sextant::testing {

inline const kind_key scoped_policy_kind{"nvidia.com", "ClusterPolicy"};
inline const kind_key scoped_daemonset_kind{"apps", "DaemonSet"};

section scoped_watch_section();
// A cluster that serves both kinds in v1.
served_kinds scoped_watch_served();

}  // namespace sextant::testing
