#pragma once
// How the KServe views show URIs and operator text: through util/masking/uris, with the words
// "credentials and query hidden" beside whatever lost something. A pre-signed URL's signature
// lives in its query, so it never reaches a view; the YAML view alone shows the object as stored.
#include <string>
#include <string_view>

#include "store/packed_value.hpp"
#include "util/json.hpp"

namespace sextant::kserve {

// A URI field: {"uri": stripped, "note": "credentials and query hidden" | null}; null when the
// field is empty.
json uri_json(std::string_view uri);

// Free text (a condition's or a failure's message) with every URI in it stripped, and
// " (credentials and query hidden)" at its end when something was removed.
std::string shown_text(std::string_view text);

// status.conditions in the common shape, each message through shown_text.
json shown_conditions(const packed_value& object);

}  // namespace sextant::kserve
