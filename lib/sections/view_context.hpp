#pragma once
// What an interpreter may read: the cache, what the cluster serves, and the time.
#include <functional>
#include <optional>
#include <string>

#include "store/object_store.hpp"
#include "store/served_kinds.hpp"
#include "util/time.hpp"

namespace sextant {

struct view_context {
  const object_store& store;
  const served_kinds& served;
  time_point now;
  // The API path of an object of a kind, or nullopt when no served resource shows that kind.
  std::function<std::optional<std::string>(const kind_key&, const std::string& namespace_, const std::string& name)>
      path_for;

  // The path as JSON: a string, or null.
  json path_json(const kind_key& type, const std::string& namespace_, const std::string& name) const;
};

}  // namespace sextant
