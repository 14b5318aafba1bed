#pragma once
// A snapshot of files as the daemon's cluster: everything is read before the first request, so
// it is always ready, forbids nothing and reads nothing on demand; it holds no logs. A settings
// change is followed by `on_settings_changed` (the app judges the problems again at once).
#include <functional>
#include <string>
#include <vector>

#include "runtime/cluster_source.hpp"

namespace sextant {

class snapshot_cluster final : public cluster_source {
 public:
  explicit snapshot_cluster(std::function<void()> on_settings_changed = {})
      : on_settings_changed_(std::move(on_settings_changed)) {}

  std::vector<std::string> unsynced() const override { return {}; }
  std::vector<std::string> forbidden() const override { return {}; }
  void demand(const kind_key&) override {}
  bool serves_pod_logs() const override { return false; }
  pod_log_stream pod_logs(pod_log_plan) override { return {}; }
  void settings_changed() override {
    if (on_settings_changed_) {
      on_settings_changed_();
    }
  }

 private:
  std::function<void()> on_settings_changed_;
};

}  // namespace sextant
