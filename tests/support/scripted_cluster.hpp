#pragma once
// A cluster_source whose answers a test sets: what is not synced, what is forbidden, what a view
// asked for, and pod logs (unset: none, as in a snapshot). `install` puts one into a daemon's
// state in place of the snapshot it starts with.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/cluster_source.hpp"
#include "runtime/daemon_state.hpp"

namespace sextant::testing {

class scripted_cluster final : public cluster_source {
 public:
  static scripted_cluster& install(daemon_state& state) {
    auto made = std::make_unique<scripted_cluster>();
    scripted_cluster& installed = *made;
    state.source = std::move(made);
    return installed;
  }

  std::vector<std::string> unsynced() const override { return unsynced_names; }
  std::vector<std::string> forbidden() const override { return forbidden_names; }
  void demand(const kind_key& type) override {
    if (on_demand) {
      on_demand(type);
    }
  }
  bool serves_pod_logs() const override { return static_cast<bool>(logs); }
  pod_log_stream pod_logs(pod_log_plan plan) override { return logs(std::move(plan)); }
  void settings_changed() override { ++settings_changes; }

  std::vector<std::string> unsynced_names;
  std::vector<std::string> forbidden_names;
  std::function<void(const kind_key&)> on_demand;
  std::function<pod_log_stream(pod_log_plan)> logs;
  int settings_changes = 0;
};

}  // namespace sextant::testing
