#include <algorithm>
#include <cctype>

#include "auth/bearer_token.hpp"

namespace sextant {

std::optional<std::string_view> bearer_token(std::string_view authorization) {
  // The scheme is case-insensitive (RFC 7235); the token is what follows the blanks.
  constexpr std::string_view scheme = "bearer";
  if (authorization.size() <= scheme.size() || authorization[scheme.size()] != ' ') {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < scheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != scheme[i]) {
      return std::nullopt;
    }
  }
  std::string_view token = authorization.substr(scheme.size());
  while (!token.empty() && token.front() == ' ') {
    token.remove_prefix(1);
  }
  while (!token.empty() && token.back() == ' ') {
    token.remove_suffix(1);
  }
  // One pass over a token of a kilobyte or more (a ServiceAccount's JWT): find_first_of would
  // call memchr on the set of blanks once per character of it.
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (token.empty() || std::any_of(token.begin(), token.end(), blank)) {
    return std::nullopt;
  }
  return token;
}

}  // namespace sextant
