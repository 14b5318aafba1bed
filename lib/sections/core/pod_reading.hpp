#pragma once
// How core reads where a pod stands with the scheduler, for its own views and for sections that
// add to a pod's details (DRA's claims): one reading, and one `waiting` block they all add to.
#include "sections/section.hpp"

namespace sextant::core {

// Whether a pod is waiting to be scheduled: Pending, not bound, not being deleted.
bool waiting_for_scheduler(const packed_value& pod);
// Whether scheduling gates hold it back (the scheduler does not consider it).
bool scheduling_gated(const packed_value& pod);
// The PodScheduled=False condition, whatever its reason (Unschedulable or SchedulerError).
const packed_value* not_scheduled_condition(const packed_value& pod);

// Adds a reason a section reads (from the scheduler's words or its own objects) to the `waiting`
// block of a pod's details. Where core showed no block (the scheduler wrote nothing), the block is
// made from the PodScheduled condition: its message (null when none) and since_of it.
void add_waiting_reason(const cached_object& pod, details_view& view, json reason);

}  // namespace sextant::core
