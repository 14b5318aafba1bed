#pragma once
// The last net over a rendered view (README.md, "Where it is applied"): whatever a section
// wrote, no string of the answer keeps URL credentials or a query.
#include "util/json.hpp"

namespace sextant::masking {

// Every string value of `view` (not its keys) with URIs stripped as strip_uris_in_text does.
// Strings without "://" or '@' are not touched; linear in the view's size.
void mask_view_strings(json& view);

}  // namespace sextant::masking
