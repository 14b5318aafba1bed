#pragma once
// The one JSON type of the daemon, and null-safe readers for interpreters.
//
// Cached objects and responses both use nlohmann's ordered_json: members keep the order the API
// server wrote them in (responses read naturally), and its vector-backed objects hold about half
// the memory of std::map nodes. Readers never throw on a missing or mistyped field: an
// interpreter reads what is there and says "unknown" for the rest.
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

// The value at `path`, or nullptr when any step is missing or of the wrong type.
const json* find(const json& root, std::initializer_list<path_step> path);

std::optional<std::string> get_string(const json& root, std::initializer_list<path_step> path);
std::optional<std::int64_t> get_int(const json& root, std::initializer_list<path_step> path);
std::optional<bool> get_bool(const json& root, std::initializer_list<path_step> path);

// The string at `path`, or `fallback` (empty by default).
std::string string_or(const json& root, std::initializer_list<path_step> path, std::string_view fallback = {});

// The array at `path`, or an empty array: lets interpreters loop without checks.
const json& array_or_empty(const json& root, std::initializer_list<path_step> path);
// The object at `path`, or an empty object.
const json& object_or_empty(const json& root, std::initializer_list<path_step> path);

// The element of a `conditions`-style array whose "type" is `type`, or nullptr.
const json* find_condition(const json& conditions, std::string_view type);

// Whether a condition object has status "True".
bool condition_true(const json* condition);

}  // namespace sextant
