#pragma once
// The `core` section: Pods, Nodes and Jobs, with a plain state each. Always listed (every
// cluster serves them); other sections extend these details (DRA claims, GPU blocks, Queue).
#include "sections/core/pod_reading.hpp"
#include "sections/section.hpp"

namespace sextant::core {

inline const kind_key pod_kind{"", "Pod"};
inline const kind_key node_kind{"", "Node"};
inline const kind_key job_kind{"batch", "Job"};

section make_section();

object_state pod_state(const cached_object& pod, const view_context& context);
object_state node_state(const cached_object& node, const view_context& context);
object_state job_state(const cached_object& job, const view_context& context);

}  // namespace sextant::core
