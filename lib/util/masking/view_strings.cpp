#include "util/masking/view_strings.hpp"

#include "util/masking/uris.hpp"

namespace sextant::masking {

void mask_view_strings(json& view) {
  if (view.is_string()) {
    const std::string& text = view.get_ref<const std::string&>();
    if (text.find("://") != std::string::npos || text.find('@') != std::string::npos) {
      stripped shown = strip_uris_in_text(text);
      if (shown.removed) {
        view = std::move(shown.text);
      }
    }
    return;
  }
  if (view.is_object() || view.is_array()) {
    for (json& item : view) {
      mask_view_strings(item);
    }
  }
}

}  // namespace sextant::masking
