#pragma once
// A live cluster as the daemon's cluster: readiness, forbidden watches and demand are the live
// source's; pod logs are read from its API server as they are asked for, through its client; a
// settings change moves the watches gated by a problem category, then `on_settings_changed`
// (the app schedules the problems' evaluation).
#include <functional>
#include <string>
#include <vector>

#include "kube/live_source.hpp"
#include "runtime/cluster_source.hpp"

namespace sextant {

class live_cluster final : public cluster_source {
 public:
  // `source` must outlive this object.
  live_cluster(kube::live_source& source, std::function<void()> on_settings_changed);

  std::vector<std::string> unsynced() const override;
  std::vector<std::string> forbidden() const override;
  void demand(const kind_key& type) override;
  bool serves_pod_logs() const override { return true; }
  pod_log_stream pod_logs(pod_log_plan plan) override;
  void settings_changed() override;

 private:
  kube::live_source& source_;
  std::function<void()> on_settings_changed_;
};

}  // namespace sextant
