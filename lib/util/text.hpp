#pragma once
// Small string tests that C++20's std::string_view lacks (contains arrives in C++23).
#include <string_view>

namespace sextant {

inline bool contains_text(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace sextant
