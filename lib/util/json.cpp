#include "util/json.hpp"

namespace sextant {

const json* member_of(const json& value, std::string_view key) {
  if (!value.is_object()) {
    return nullptr;
  }
  auto it = value.find(key);
  return it == value.end() ? nullptr : &*it;
}

const json* element_of(const json& value, std::size_t index) {
  if (!value.is_array() || index >= value.size()) {
    return nullptr;
  }
  return &value[index];
}

std::string_view string_of(const json& value) {
  return value.is_string() ? std::string_view(value.get_ref<const std::string&>()) : std::string_view{};
}

const json& empty_array_of(const json&) {
  static const json empty = json::array();
  return empty;
}

const json& empty_object_of(const json&) {
  static const json empty = json::object();
  return empty;
}

}  // namespace sextant
