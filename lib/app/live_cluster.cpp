#include "app/live_cluster.hpp"

#include "app/pod_log_streamer.hpp"

namespace sextant {

live_cluster::live_cluster(kube::live_source& source, std::function<void()> on_settings_changed)
    : source_(source), on_settings_changed_(std::move(on_settings_changed)) {}

std::vector<std::string> live_cluster::unsynced() const {
  std::vector<std::string> waiting = source_.readiness();
  // Until discovery first succeeds, why it fails is what /readyz has to say (an untrusted
  // certificate, refused credentials, no answer), not only that it has not happened.
  for (std::string& name : waiting) {
    if (name == "discovery" && !source_.discovery_error().empty()) {
      name += " (" + source_.discovery_error() + ")";
    }
  }
  return waiting;
}

std::vector<std::string> live_cluster::forbidden() const {
  return source_.forbidden();
}

void live_cluster::demand(const kind_key& type) {
  source_.demand(type);
}

pod_log_stream live_cluster::pod_logs(pod_log_plan plan) {
  return [client = &source_.client(), plan = std::move(plan)](chunk_sink& sink) {
    return stream_pod_logs(*client, plan, sink);
  };
}

void live_cluster::settings_changed() {
  if (on_settings_changed_) {
    on_settings_changed_();
  }
  source_.categories_changed();
}

}  // namespace sextant
