#include "util/go_quoted.hpp"

#include <charconv>
#include <cstdint>

namespace sextant {
namespace {

void append_utf8(std::string& out, std::uint32_t code) {
  if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    code = 0xFFFD;  // what Go writes for an invalid rune
  }
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// `digits` characters of `text` from `at` in `base`; false when they are not all digits.
bool number_at(std::string_view text, std::size_t at, std::size_t digits, int base, std::uint32_t& value) {
  if (at + digits > text.size()) {
    return false;
  }
  const char* first = text.data() + at;
  auto [end, error] = std::from_chars(first, first + digits, value, base);
  return error == std::errc() && end == first + digits;
}

char simple_escape(char c) {
  switch (c) {
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case '\\':
      return '\\';
    case '"':
      return '"';
    case '\'':
      return '\'';
    default:
      return 0;
  }
}

}  // namespace

std::string go_unquoted(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char kind = text[i + 1];
    if (char plain = simple_escape(kind)) {
      out += plain;
      ++i;
      continue;
    }
    std::uint32_t value = 0;
    if (kind == 'x' && number_at(text, i + 2, 2, 16, value)) {
      out += static_cast<char>(value);  // a byte, as Go's \x is
      i += 3;
    } else if (kind == 'u' && number_at(text, i + 2, 4, 16, value)) {
      append_utf8(out, value);
      i += 5;
    } else if (kind == 'U' && number_at(text, i + 2, 8, 16, value)) {
      append_utf8(out, value);
      i += 9;
    } else if (kind >= '0' && kind <= '7' && number_at(text, i + 1, 3, 8, value) && value <= 0xFF) {
      out += static_cast<char>(value);
      i += 3;
    } else {
      out += text[i];  // not an escape Go writes: keep the backslash
    }
  }
  return out;
}

}  // namespace sextant
