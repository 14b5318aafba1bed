#pragma once
// The demo cluster (examples/demo-cluster) as `sextantd --snapshot` serves it: every registered
// section, every list settled as a snapshot settles it, asked through the router.
#include <string>
#include <utility>

#include "api/api_router.hpp"
#include "app/daemon_state.hpp"

namespace sextant::testing {

struct demo_daemon {
  // At the demo's `--now`; with `all_categories` every problem category is on and evaluated.
  explicit demo_daemon(bool all_categories = false);

  // The status and parsed body of a GET.
  std::pair<int, json> get(const std::string& target);

  fixed_clock clock;
  daemon_state state;
  api_router router{state};
};

}  // namespace sextant::testing
