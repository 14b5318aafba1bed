#include "util/json.hpp"

namespace sextant {

const json* find(const json& root, std::initializer_list<path_step> path) {
  const json* at = &root;
  for (const path_step& step : path) {
    if (step.is_index_) {
      if (!at->is_array() || step.index_ >= at->size()) {
        return nullptr;
      }
      at = &(*at)[step.index_];
    } else {
      if (!at->is_object()) {
        return nullptr;
      }
      auto it = at->find(step.key_);
      if (it == at->end()) {
        return nullptr;
      }
      at = &*it;
    }
  }
  return at;
}

std::optional<std::string> get_string(const json& root, std::initializer_list<path_step> path) {
  const json* value = find(root, path);
  if (value == nullptr || !value->is_string()) {
    return std::nullopt;
  }
  return value->get<std::string>();
}

std::optional<std::int64_t> get_int(const json& root, std::initializer_list<path_step> path) {
  const json* value = find(root, path);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (value->is_number_integer()) {
    return value->get<std::int64_t>();
  }
  if (value->is_number_float()) {
    return static_cast<std::int64_t>(value->get<double>());
  }
  return std::nullopt;
}

std::optional<bool> get_bool(const json& root, std::initializer_list<path_step> path) {
  const json* value = find(root, path);
  if (value == nullptr || !value->is_boolean()) {
    return std::nullopt;
  }
  return value->get<bool>();
}

std::string string_or(const json& root, std::initializer_list<path_step> path, std::string_view fallback) {
  const json* value = find(root, path);
  if (value == nullptr || !value->is_string()) {
    return std::string(fallback);
  }
  return value->get<std::string>();
}

const json& array_or_empty(const json& root, std::initializer_list<path_step> path) {
  static const json empty = json::array();
  const json* value = find(root, path);
  return value != nullptr && value->is_array() ? *value : empty;
}

const json& object_or_empty(const json& root, std::initializer_list<path_step> path) {
  static const json empty = json::object();
  const json* value = find(root, path);
  return value != nullptr && value->is_object() ? *value : empty;
}

const json* find_condition(const json& conditions, std::string_view type) {
  if (!conditions.is_array()) {
    return nullptr;
  }
  for (const json& condition : conditions) {
    if (condition.is_object()) {
      auto it = condition.find("type");
      if (it != condition.end() && it->is_string() && it->get_ref<const std::string&>() == type) {
        return &condition;
      }
    }
  }
  return nullptr;
}

bool condition_true(const json* condition) {
  if (condition == nullptr) {
    return false;
  }
  auto it = condition->find("status");
  return it != condition->end() && it->is_string() && it->get_ref<const std::string&>() == "True";
}

}  // namespace sextant
