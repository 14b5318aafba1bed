#pragma once
// Byte classes the masking readers share. ASCII only, on purpose: a byte of a multi-byte UTF-8
// character is never a letter, a digit or a separator here, so it never joins a name.
#include <string_view>

namespace sextant::masking {

inline bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool ascii_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
inline bool ascii_lower(char c) {
  return c >= 'a' && c <= 'z';
}
inline bool ascii_alpha(char c) {
  return ascii_upper(c) || ascii_lower(c);
}
inline bool ascii_alnum(char c) {
  return ascii_alpha(c) || ascii_digit(c);
}
inline char lowered(char c) {
  return ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}
// Whitespace as a shell and a YAML scalar see it.
inline bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
// A character of a name: letters, digits and the joiners names are written with.
inline bool name_char(char c) {
  return ascii_alnum(c) || c == '_' || c == '-' || c == '.';
}
inline bool quote_char(char c) {
  return c == '"' || c == '\'';
}
inline bool equals_lowered(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) {
    return false;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (lowered(text[i]) != lower[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace sextant::masking
