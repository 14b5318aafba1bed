#pragma once
// How the KServe views show a URI field: through util/masking/uris, with the words "credentials
// and query hidden" beside whatever lost something. A pre-signed URL's signature lives in its
// query, so it never reaches a view; the YAML view alone shows the object as stored. Messages go
// through masking::operator_text, condition blocks through sections/common/conditions.
#include <string_view>

#include "util/json.hpp"

namespace sextant::kserve {

// A URI field: {"uri": stripped, "note": "credentials and query hidden" | null}; null when the
// field is empty.
json uri_json(std::string_view uri);

}  // namespace sextant::kserve
