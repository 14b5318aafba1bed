#pragma once
// GPU Operator shorthands over the shared section harness (tests/support/section_views.hpp).
#include <string>

#include <catch2/catch.hpp>

#include "util/json.hpp"

namespace sextant::gpu_operator_test {

// The row of a Cluster Policy's components block for one component (the test fails without it).
inline const json& component_row(const json& view, const std::string& component) {
  for (const json& r : view["components"]) {
    if (r["component"] == component) {
      return r;
    }
  }
  static const json none;
  FAIL("no component row " << component);
  return none;
}

}  // namespace sextant::gpu_operator_test
