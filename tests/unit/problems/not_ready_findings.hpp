#pragma once
// The problem the engine's tests judge: a Node "not ready" since its Ready condition's
// lastTransitionTime when it has one, else (no time given) since first seen, due after 10 minutes.
#include <chrono>
#include <optional>
#include <vector>

#include "sections/section.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace sextant::testing {

inline std::vector<finding> not_ready_findings(const cached_object& node) {
  std::vector<finding> out;
  const packed_value* ready = find_condition(array_or_empty(node.body(), {"status", "conditions"}), "Ready");
  if (ready != nullptr && !condition_true(ready)) {
    std::optional<time_point> since;
    if (auto text = get_string(*ready, {"lastTransitionTime"})) {
      since = parse_rfc3339(*text);
    }
    out.push_back({"not-ready", since, std::chrono::minutes(10), "not ready"});
  }
  return out;
}

}  // namespace sextant::testing
