#pragma once
// The toolkit's one policy for "since when": a state's time is the object's own when it tells one
// (a condition's lastTransitionTime, an endTime); when it tells none, the problem engine counts
// from the daemon's first sighting of the object, and the view says so, with the reason, so that
// nobody reads a restart-relative time as the object's own.
#include <optional>
#include <string>

#include "sections/section.hpp"
#include "util/time.hpp"

namespace sextant {

struct since_source {
  std::optional<time_point> since;  // the object's own time, when it tells one
  std::string first_sighting;       // why it tells none: then since counts from the first sighting
};

// `since` and `sinceFrom` in a details view: "the object" when it tells, "first sighting" (and
// the reason as a note) when it does not, null when neither is known.
void since_blocks(const since_source& since, details_view& view);

}  // namespace sextant
