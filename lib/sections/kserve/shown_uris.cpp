#include "sections/kserve/shown_uris.hpp"

#include "util/masking/uris.hpp"

namespace sextant::kserve {

json uri_json(std::string_view uri) {
  if (uri.empty()) {
    return nullptr;
  }
  masking::stripped shown = masking::strip_uri(uri);
  return {{"uri", shown.text}, {"note", shown.removed ? json(std::string(masking::removed_note)) : json(nullptr)}};
}

}  // namespace sextant::kserve
