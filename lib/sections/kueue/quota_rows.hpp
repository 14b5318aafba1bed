#pragma once
// The rows of a quota table, shared by Cluster Queues (with usage) and Cohorts (without).
#include <string>

#include "store/packed_value.hpp"

namespace sextant::kueue {

inline constexpr const char* no_limit = "no limit";

// A quantity as the object wrote it, as text ("9", "36Gi"); null when absent.
json quantity_or_null(const packed_value* value);

// One row per flavor and resource of spec.resourceGroups: {flavor, resource, nominal,
// borrowingLimit, lendingLimit}. Limits read "no limit" where unset and the object can borrow
// or lend (it has a cohort or parent), null where it cannot.
json quota_rows(const packed_value& object, bool shares_quota);

}  // namespace sextant::kueue
