#include "sections/common/conditions.hpp"

#include "util/masking/secrets.hpp"

#include <algorithm>

namespace sextant {

const packed_value* condition_of(const packed_value& object, std::string_view type) {
  return find_condition(array_or_empty(object, {"status", "conditions"}), type);
}

std::string condition_status(const packed_value* condition) {
  return condition == nullptr ? std::string() : string_or(*condition, {"status"});
}

std::string condition_reason(const packed_value* condition) {
  return condition == nullptr ? std::string() : string_or(*condition, {"reason"});
}

std::string condition_message(const packed_value* condition) {
  return condition == nullptr ? std::string() : string_or(*condition, {"message"});
}

std::optional<time_point> transition_time(const packed_value* condition) {
  if (condition == nullptr) {
    return std::nullopt;
  }
  return parse_rfc3339(string_or(*condition, {"lastTransitionTime"}));
}

std::optional<time_point> created_at(const packed_value& object) {
  return parse_rfc3339(string_or(object, {"metadata", "creationTimestamp"}));
}

std::optional<time_point> since_of(const packed_value* condition, const packed_value& object) {
  if (auto at = transition_time(condition)) {
    return at;
  }
  return created_at(object);
}

std::string masked_condition_message(const packed_value* condition) {
  return masking::operator_text(condition_message(condition));
}

object_state condition_state(std::string label, const packed_value* condition) {
  return {std::move(label), condition_reason(condition), masked_condition_message(condition)};
}

std::optional<time_point> later_of(std::optional<time_point> a, std::optional<time_point> b) {
  if (a && b) {
    return std::max(*a, *b);
  }
  return a ? a : b;
}

json time_or_null(const std::optional<time_point>& at) {
  return at ? json(format_rfc3339(*at)) : json(nullptr);
}

json conditions_json(const packed_value& conditions) {
  json out = json::array();
  if (!conditions.is_array()) {
    return out;
  }
  for (const packed_value& condition : conditions) {
    auto at = get_string(condition, {"lastTransitionTime"});
    out.push_back({{"type", string_or(condition, {"type"})},
                   {"status", string_or(condition, {"status"})},
                   {"reason", string_or(condition, {"reason"})},
                   {"message", masking::operator_text(string_or(condition, {"message"}))},
                   {"lastTransitionTime", at && !at->empty() ? json(*at) : json(nullptr)}});
  }
  return out;
}

json status_conditions_json(const packed_value& object) {
  return conditions_json(array_or_empty(object, {"status", "conditions"}));
}

}  // namespace sextant
