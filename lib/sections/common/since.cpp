#include "sections/common/since.hpp"

#include "sections/common/conditions.hpp"

namespace sextant {

void since_blocks(const since_source& since, details_view& view) {
  view.blocks["since"] = time_or_null(since.since);
  if (since.since) {
    view.blocks["sinceFrom"] = "the object";
  } else if (!since.first_sighting.empty()) {
    view.blocks["sinceFrom"] = "first sighting";
    view.note(since.first_sighting);
  } else {
    view.blocks["sinceFrom"] = nullptr;
  }
}

}  // namespace sextant
