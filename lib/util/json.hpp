#pragma once
// The daemon's JSON type, and null-safe readers for interpreters.
//
// Responses and small documents use nlohmann's ordered_json: members keep the order they were
// written in, so responses read naturally. Cached bodies are packed (store/packed_value.hpp); the
// readers below take either, so an interpreter reads a cached object and a polled document
// alike. Readers never throw on a missing or mistyped field: an interpreter reads what is there
// and says "unknown" for the rest.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sextant {

using json = nlohmann::ordered_json;

// One step of a path: a member name or an array index.
struct path_step {
  path_step(const char* key) : key_(key) {}  // NOLINT: paths read best as {"status", "conditions"}
  path_step(std::string_view key) : key_(key) {}
  path_step(const std::string& key) : key_(key) {}
  path_step(std::size_t index) : index_(index), is_index_(true) {}
  path_step(int index) : index_(static_cast<std::size_t>(index)), is_index_(true) {}

  std::string_view key_;
  std::size_t index_ = 0;
  bool is_index_ = false;
};

// Where the readers step for an nlohmann value; store/packed_value.hpp has the same for packed ones.
const json* member_of(const json& value, std::string_view key);
const json* element_of(const json& value, std::size_t index);
std::string_view string_of(const json& value);  // empty unless a string
const json& empty_array_of(const json&);
const json& empty_object_of(const json&);

// The value at `path`, or nullptr when any step is missing or of the wrong type.
template <typename Value>
const Value* find(const Value& root, std::initializer_list<path_step> path) {
  const Value* at = &root;
  for (const path_step& step : path) {
    at = step.is_index_ ? element_of(*at, step.index_) : member_of(*at, step.key_);
    if (at == nullptr) {
      return nullptr;
    }
  }
  return at;
}

template <typename Value>
std::optional<std::string> get_string(const Value& root, std::initializer_list<path_step> path) {
  const Value* value = find(root, path);
  if (value == nullptr || !value->is_string()) {
    return std::nullopt;
  }
  return std::string(string_of(*value));
}

template <typename Value>
std::optional<std::int64_t> get_int(const Value& root, std::initializer_list<path_step> path) {
  const Value* value = find(root, path);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (value->is_number_integer()) {
    return value->template get<std::int64_t>();
  }
  if (value->is_number_float()) {
    return static_cast<std::int64_t>(value->template get<double>());
  }
  return std::nullopt;
}

template <typename Value>
std::optional<bool> get_bool(const Value& root, std::initializer_list<path_step> path) {
  const Value* value = find(root, path);
  if (value == nullptr || !value->is_boolean()) {
    return std::nullopt;
  }
  return value->template get<bool>();
}

// The string at `path`, or `fallback` (empty by default).
template <typename Value>
std::string string_or(const Value& root, std::initializer_list<path_step> path, std::string_view fallback = {}) {
  const Value* value = find(root, path);
  if (value == nullptr || !value->is_string()) {
    return std::string(fallback);
  }
  return std::string(string_of(*value));
}

// The array at `path`, or an empty array: lets interpreters loop without checks.
template <typename Value>
const Value& array_or_empty(const Value& root, std::initializer_list<path_step> path) {
  const Value* value = find(root, path);
  return value != nullptr && value->is_array() ? *value : empty_array_of(root);
}

// The object at `path`, or an empty object.
template <typename Value>
const Value& object_or_empty(const Value& root, std::initializer_list<path_step> path) {
  const Value* value = find(root, path);
  return value != nullptr && value->is_object() ? *value : empty_object_of(root);
}

// A view field that is "as written or absent": the value, or null when it is empty or unset.
inline json or_null(std::string_view text) {
  return text.empty() ? json(nullptr) : json(text);
}
template <typename T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

// The element of a `conditions`-style array whose "type" is `type`, or nullptr.
template <typename Value>
const Value* find_condition(const Value& conditions, std::string_view type) {
  if (!conditions.is_array()) {
    return nullptr;
  }
  for (const Value& condition : conditions) {
    const Value* condition_type = member_of(condition, "type");
    if (condition_type != nullptr && string_of(*condition_type) == type && condition_type->is_string()) {
      return &condition;
    }
  }
  return nullptr;
}

// Whether a condition object has status "True".
template <typename Value>
bool condition_true(const Value* condition) {
  if (condition == nullptr) {
    return false;
  }
  const Value* status = member_of(*condition, "status");
  return status != nullptr && status->is_string() && string_of(*status) == "True";
}

}  // namespace sextant
