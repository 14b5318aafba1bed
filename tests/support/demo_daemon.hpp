#pragma once
// A daemon's state and router over a snapshot, asked as `sextantd --snapshot` serves it: every
// registered section, every list settled as a snapshot settles it, problems evaluated and their
// /metrics series collected as the app does. `demo_daemon` is the demo cluster
// (examples/demo-cluster); `snapshot_daemon` takes any snapshot text.
#include <memory>
#include <string>
#include <utility>

#include "api/api_router.hpp"
#include "problems/problem_metrics.hpp"
#include "runtime/daemon_state.hpp"

namespace sextant::testing {

class snapshot_daemon {
 public:
  // `snapshot_text`: YAML or JSON documents as a snapshot file holds them; at `now`; with
  // `all_categories` every problem category is on and evaluated.
  snapshot_daemon(const std::string& snapshot_text, bool is_json, const char* now, bool all_categories);

  // The status and parsed body of a GET.
  std::pair<int, json> get(const std::string& target);
  // The status and the body as sent (/metrics is text).
  std::pair<int, std::string> get_text(const std::string& target);

  fixed_clock clock;
  daemon_state state;
  api_router router{state};

 protected:
  explicit snapshot_daemon(const char* now);
  // Settles the lists, turns the categories on, evaluates problems and collects their metrics.
  void settle(bool all_categories);

 private:
  std::unique_ptr<problem_metrics> problem_series_;
};

struct demo_daemon : snapshot_daemon {
  // At the demo's `--now`; with `all_categories` every problem category is on and evaluated.
  explicit demo_daemon(bool all_categories = false);
};

}  // namespace sextant::testing
