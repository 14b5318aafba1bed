#pragma once
// The token of an "Authorization: Bearer <token>" header.
#include <optional>
#include <string_view>

namespace sextant {

// The token, or nullopt when the header holds none (another scheme, blanks inside, empty).
std::optional<std::string_view> bearer_token(std::string_view authorization);

}  // namespace sextant
