#include "sections/dra/node_selector_text.hpp"

#include <vector>

namespace sextant::dra {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) {
      out += separator;
    }
    out += part;
  }
  return out;
}

std::string requirement_text(const packed_value& requirement) {
  std::string key = string_or(requirement, {"key"}, "?");
  std::string op = string_or(requirement, {"operator"});
  std::vector<std::string> values;
  for (const packed_value& value : array_or_empty(requirement, {"values"})) {
    if (value.is_string()) {
      values.push_back(value.get<std::string>());
    }
  }
  if (op == "In") {
    return key + " in (" + join(values, ", ") + ")";
  }
  if (op == "NotIn") {
    return key + " notin (" + join(values, ", ") + ")";
  }
  if (op == "Exists") {
    return key + " exists";
  }
  if (op == "DoesNotExist") {
    return key + " does not exist";
  }
  if (op == "Gt") {
    return key + " > " + join(values, ", ");
  }
  if (op == "Lt") {
    return key + " < " + join(values, ", ");
  }
  return key + " " + op + " (" + join(values, ", ") + ")";
}

}  // namespace

std::string node_selector_text(const packed_value& selector) {
  std::vector<std::string> terms;
  for (const packed_value& term : array_or_empty(selector, {"nodeSelectorTerms"})) {
    std::vector<std::string> requirements;
    for (const char* field : {"matchExpressions", "matchFields"}) {
      for (const packed_value& requirement : array_or_empty(term, {field})) {
        requirements.push_back(requirement_text(requirement));
      }
    }
    terms.push_back(requirements.empty() ? std::string("(any node)") : join(requirements, " and "));
  }
  return join(terms, " or ");
}

std::optional<std::string> pinned_node(const packed_value& selector) {
  const packed_value& terms = array_or_empty(selector, {"nodeSelectorTerms"});
  if (terms.size() != 1 || !array_or_empty(terms[0], {"matchExpressions"}).empty()) {
    return std::nullopt;
  }
  const packed_value& fields = array_or_empty(terms[0], {"matchFields"});
  if (fields.size() != 1 || string_or(fields[0], {"key"}) != "metadata.name" ||
      string_or(fields[0], {"operator"}) != "In") {
    return std::nullopt;
  }
  const packed_value& values = array_or_empty(fields[0], {"values"});
  if (values.size() != 1 || !values[0].is_string()) {
    return std::nullopt;
  }
  return values[0].get<std::string>();
}

}  // namespace sextant::dra
