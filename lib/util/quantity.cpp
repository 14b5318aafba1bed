#include "util/quantity.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace sextant {
namespace {

struct suffix_entry {
  std::string_view text;
  long double factor;
  quantity_style style;
};

constexpr long double kibi = 1024.0L;
const std::array<suffix_entry, 15> suffixes{{
    {"n", 1e-9L, quantity_style::decimal_si},
    {"u", 1e-6L, quantity_style::decimal_si},
    {"m", 1e-3L, quantity_style::plain},  // milli-units read as plain: "1500m" cpu stays in cores
    {"k", 1e3L, quantity_style::decimal_si},
    {"M", 1e6L, quantity_style::decimal_si},
    {"G", 1e9L, quantity_style::decimal_si},
    {"T", 1e12L, quantity_style::decimal_si},
    {"P", 1e15L, quantity_style::decimal_si},
    {"E", 1e18L, quantity_style::decimal_si},
    {"Ki", kibi, quantity_style::binary_si},
    {"Mi", kibi* kibi, quantity_style::binary_si},
    {"Gi", kibi* kibi* kibi, quantity_style::binary_si},
    {"Ti", kibi* kibi* kibi* kibi, quantity_style::binary_si},
    {"Pi", kibi* kibi* kibi* kibi* kibi, quantity_style::binary_si},
    {"Ei", kibi* kibi* kibi* kibi* kibi* kibi, quantity_style::binary_si},
}};

bool is_exact(long double value) {
  return std::fabs(value - std::round(value)) < 1e-9L * std::max(1.0L, std::fabs(value));
}

std::string integer_text(long double value) {
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.0Lf", std::round(value));
  return buffer.data();
}

}  // namespace

std::optional<quantity> parse_quantity(std::string_view text) {
  std::size_t position = 0;
  if (position < text.size() && (text[position] == '+' || text[position] == '-')) {
    ++position;
  }
  bool seen_digit = false;
  while (position < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[position])) != 0 || text[position] == '.')) {
    seen_digit = seen_digit || text[position] != '.';
    ++position;
  }
  if (!seen_digit) {
    return std::nullopt;
  }
  const std::string number(text.substr(0, position));
  char* end = nullptr;
  long double value = std::strtold(number.c_str(), &end);
  if (end != number.c_str() + number.size()) {
    return std::nullopt;
  }
  std::string_view suffix = text.substr(position);
  quantity result{value, quantity_style::plain};
  if (suffix.empty()) {
    return result;
  }
  if ((suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
    std::string exponent(suffix.substr(1));
    char* exponent_end = nullptr;
    long exponent_value = std::strtol(exponent.c_str(), &exponent_end, 10);
    if (exponent_end == exponent.c_str() + exponent.size()) {
      result.value = value * std::pow(10.0L, static_cast<long double>(exponent_value));
      return result;
    }
  }
  for (const suffix_entry& entry : suffixes) {
    if (entry.text == suffix) {
      result.value = value * entry.factor;
      result.style = entry.style;
      return result;
    }
  }
  return std::nullopt;
}

std::string format_quantity(long double value, quantity_style style) {
  if (style == quantity_style::binary_si && is_exact(value) && value != 0) {
    // The largest binary suffix that divides the value exactly.
    for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) {
      if (it->style == quantity_style::binary_si && std::fabs(value) >= it->factor && is_exact(value / it->factor)) {
        return integer_text(value / it->factor) + std::string(it->text);
      }
    }
  }
  if (style == quantity_style::decimal_si && is_exact(value) && value != 0) {
    for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) {
      if (it->style == quantity_style::decimal_si && it->factor >= 1e3L && std::fabs(value) >= it->factor &&
          is_exact(value / it->factor)) {
        return integer_text(value / it->factor) + std::string(it->text);
      }
    }
  }
  if (is_exact(value)) {
    return integer_text(value);
  }
  if (is_exact(value * 1000)) {
    return integer_text(value * 1000) + "m";
  }
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.6Lg", value);
  return buffer.data();
}

}  // namespace sextant
