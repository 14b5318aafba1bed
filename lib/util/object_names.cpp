#include "util/object_names.hpp"

#include <algorithm>
#include <regex>

namespace sextant {

bool valid_namespace(const std::string& text) {
  static const std::regex label(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)");
  return text.size() <= 63 && std::regex_match(text, label);
}

bool valid_name(const std::string& text) {
  if (text.empty() || text.size() > 253) {
    return false;
  }
  return std::none_of(text.begin(), text.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == '/' || c == 0x7f; });
}

}  // namespace sextant
