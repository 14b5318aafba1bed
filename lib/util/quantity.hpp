#pragma once
// Kubernetes resource quantities ("300m", "36Gi", 9, "1e3") as numbers, and back.
//
// Quotas, usage, requests and device capacities are quantities: Kueue's quota table divides them
// (share of nominal), pod requests are summed, DRA shows capacities. Values are kept as long
// double base units, which is exact for every quantity a cluster writes in practice (milli-units
// to exabytes). The readers take nlohmann or packed values alike.
#include <optional>
#include <string>
#include <string_view>

#include "util/json.hpp"

namespace sextant {

enum class quantity_style { plain, decimal_si, binary_si };

struct quantity {
  long double value = 0;  // in base units: cores, bytes, devices
  quantity_style style = quantity_style::plain;
};

// Parses a quantity string; nullopt when it is not one.
std::optional<quantity> parse_quantity(std::string_view text);
// Reads a quantity from JSON: a string or a number.
template <typename Value>
std::optional<quantity> quantity_of(const Value& value) {
  if (value.is_string()) {
    return parse_quantity(string_of(value));
  }
  if (value.is_number()) {
    return quantity{value.template get<long double>(), quantity_style::plain};
  }
  return std::nullopt;
}

// Formats a value in the given style: binary/decimal suffixes only where exact, else a plain
// integer, else milli-units ("1500m"), else a decimal.
std::string format_quantity(long double value, quantity_style style);

// A quantity as text: a string as written ("80Gi"), a number as the API server writes it (1.5 is
// "1500m"); empty for anything else.
template <typename Value>
std::string quantity_text(const Value& value) {
  if (value.is_string()) {
    return std::string(string_of(value));
  }
  if (auto parsed = quantity_of(value)) {
    return format_quantity(parsed->value, parsed->style);
  }
  return {};
}

}  // namespace sextant
