#include "snapshot/yaml_to_json.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>
#include <string>

namespace sextant {
namespace {

bool is_null_word(const std::string& text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

std::optional<bool> as_bool(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") {
    return true;
  }
  if (text == "false" || text == "False" || text == "FALSE") {
    return false;
  }
  return std::nullopt;
}

std::optional<json> as_integer(const std::string& text) {
  std::string_view digits = text;
  int base = 10;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.starts_with("0x")) {
    base = 16;
    digits.remove_prefix(2);
  } else if (digits.starts_with("0o")) {
    base = 8;
    digits.remove_prefix(2);
  }
  if (digits.empty()) {
    return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (error != std::errc{} || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  if (!negative) {
    if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return json(static_cast<std::int64_t>(magnitude));
    }
    return json(magnitude);
  }
  if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1) {
    return json(static_cast<std::int64_t>(0 - magnitude));
  }
  return std::nullopt;
}

std::optional<json> as_float(const std::string& text) {
  static const std::regex float_pattern(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  if (text == ".inf" || text == "+.inf" || text == ".Inf" || text == "+.Inf") {
    return json(std::numeric_limits<double>::infinity());
  }
  if (text == "-.inf" || text == "-.Inf") {
    return json(-std::numeric_limits<double>::infinity());
  }
  if (text == ".nan" || text == ".NaN") {
    return json(std::nan(""));
  }
  if (!std::regex_match(text, float_pattern)) {
    return std::nullopt;
  }
  try {
    return json(std::stod(text));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

json scalar_to_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  // A quoted or explicitly tagged scalar is a string; "?" marks a plain one, typed by its text.
  if (node.Tag() != "?") {
    return json(text);
  }
  if (is_null_word(text)) {
    return json(nullptr);
  }
  if (auto boolean = as_bool(text)) {
    return json(*boolean);
  }
  if (auto integer = as_integer(text)) {
    return *integer;
  }
  if (auto floating = as_float(text)) {
    return *floating;
  }
  return json(text);
}

}  // namespace

json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return json(nullptr);
    case YAML::NodeType::Scalar:
      return scalar_to_json(node);
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const YAML::Node& element : node) {
        out.push_back(yaml_to_json(element));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& entry : node) {
        out[entry.first.as<std::string>()] = yaml_to_json(entry.second);
      }
      return out;
    }
  }
  return json(nullptr);
}

}  // namespace sextant
