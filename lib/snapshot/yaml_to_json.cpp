#include "snapshot/yaml_to_json.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

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

// Past this length a plain scalar is no number a Kubernetes object holds (a double needs at most
// 24 characters in its shortest form): it stays a string, and strtod never sees megabytes.
constexpr std::size_t longest_number = 1024;

std::optional<json> as_integer(const std::string& text) {
  if (text.size() > longest_number) {
    return std::nullopt;
  }
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

std::size_t skip_digits(std::string_view text, std::size_t at) {
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    ++at;
  }
  return at;
}

}  // namespace

bool yaml_core_float(std::string_view text) {
  std::size_t at = 0;
  if (at < text.size() && (text[at] == '-' || text[at] == '+')) {
    ++at;
  }
  const std::size_t whole_end = skip_digits(text, at);
  const bool has_whole = whole_end > at;
  at = whole_end;
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction_end = skip_digits(text, at + 1);
    if (!has_whole && fraction_end == at + 1) {
      return false;  // "." or "-." alone
    }
    at = fraction_end;
  } else if (!has_whole) {
    return false;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) {
      ++at;
    }
    const std::size_t exponent_end = skip_digits(text, at);
    if (exponent_end == at) {
      return false;
    }
    at = exponent_end;
  }
  return at == text.size();
}

namespace {

std::optional<json> as_float(const std::string& text) {
  if (text == ".inf" || text == "+.inf" || text == ".Inf" || text == "+.Inf") {
    return json(std::numeric_limits<double>::infinity());
  }
  if (text == "-.inf" || text == "-.Inf") {
    return json(-std::numeric_limits<double>::infinity());
  }
  if (text == ".nan" || text == ".NaN") {
    return json(std::nan(""));
  }
  if (text.size() > longest_number || !yaml_core_float(text)) {
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

// Kubernetes objects nest a few dozen levels. Deeper is only reached through aliases, and
// yaml-cpp makes an alias inside its own anchor (`&a [*a]`) a node that holds itself, which no
// budget of nodes stops before the stack runs out.
constexpr std::size_t deepest_nesting = 256;

// Converts a node and what it contains, counting each node against the budget.
class budgeted_converter {
 public:
  explicit budgeted_converter(std::size_t budget) : left_(budget) {}

  json convert(const YAML::Node& node, std::size_t depth = 0) {
    if (left_ == 0) {
      throw yaml_expansion_error("its aliases expand to more nodes than allowed (--max-yaml-alias-nodes)");
    }
    if (depth > deepest_nesting) {
      throw yaml_expansion_error("it nests deeper than " + std::to_string(deepest_nesting) +
                                 " levels (an alias inside its own anchor?)");
    }
    --left_;
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return json(nullptr);
      case YAML::NodeType::Scalar:
        return scalar_to_json(node);
      case YAML::NodeType::Sequence: {
        json out = json::array();
        for (const YAML::Node& element : node) {
          out.push_back(convert(element, depth + 1));
        }
        return out;
      }
      case YAML::NodeType::Map: {
        json out = json::object();
        for (const auto& entry : node) {
          out[entry.first.as<std::string>()] = convert(entry.second, depth + 1);
        }
        return out;
      }
    }
    return json(nullptr);
  }

 private:
  std::size_t left_;
};

}  // namespace

std::size_t yaml_node_budget(std::size_t bytes, std::size_t alias_nodes) {
  const std::size_t most = std::numeric_limits<std::size_t>::max();
  const std::size_t own = bytes > most / 2 ? most : 2 * bytes;
  return own > most - alias_nodes ? most : own + alias_nodes;
}

json yaml_to_json(const YAML::Node& node, std::size_t node_budget) {
  return budgeted_converter(node_budget).convert(node);
}

}  // namespace sextant
