#include "sections/kserve/shown_uris.hpp"

#include "sections/common/conditions.hpp"
#include "util/masking/uris.hpp"

namespace sextant::kserve {

json uri_json(std::string_view uri) {
  if (uri.empty()) {
    return nullptr;
  }
  masking::stripped shown = masking::strip_uri(uri);
  return {{"uri", shown.text}, {"note", shown.removed ? json(std::string(masking::removed_note)) : json(nullptr)}};
}

std::string shown_text(std::string_view text) {
  masking::stripped shown = masking::strip_uris_in_text(text);
  if (!shown.removed) {
    return shown.text;
  }
  return shown.text + " (" + std::string(masking::removed_note) + ")";
}

json shown_conditions(const packed_value& object) {
  json conditions = status_conditions_json(object);
  for (json& condition : conditions) {
    if (condition.contains("message") && condition["message"].is_string()) {
      condition["message"] = shown_text(condition["message"].get<std::string>());
    }
  }
  return conditions;
}

}  // namespace sextant::kserve
