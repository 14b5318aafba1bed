#pragma once
// A live_source as the daemon runs it (one io_context, the store, served kinds, metrics),
// driven from the test thread: the loop runs only inside `run_until`, so the test reads the
// store between runs without locks. Options are shortened (discovery every second, short
// backoffs) so that tests wait seconds, not minutes.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "admin_client.hpp"
#include "kube/live_source.hpp"
#include "sections/section.hpp"

namespace sextant::integration {

kube::live_options fast_options();

// A connection from a kubeconfig file (the test fails with the loader's error otherwise).
kube::connection_config kubeconfig(const std::string& path, const std::string& context = {});

class live_harness {
 public:
  live_harness(kube::connection_config config, std::vector<section> sections,
               kube::live_options options = fast_options());
  ~live_harness();

  // Runs the loop until `done()` or `limit`; returns whether `done()` held.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(30));
  void run_for(std::chrono::milliseconds duration);
  bool ready() const { return live->readiness().empty(); }

  // "namespace/name" -> resourceVersion of every cached object of a kind.
  std::map<std::string, std::string> cached(const kind_key& type) const;
  double metric(const std::string& name, const metric_labels& labels) const { return metrics.value(name, labels); }

  boost::asio::io_context io;
  object_store store;
  served_kinds served;
  metrics_registry metrics;
  wall_clock wall;
  std::unique_ptr<kube::live_source> live;
};

// "namespace/name" -> resourceVersion of every object the server lists at `path`.
std::map<std::string, std::string> listed(admin_client& admin, const std::string& path);

// Runs the loop until the cache holds exactly what the server lists now, every Pod and Job by
// name and resourceVersion, or `limit` passes; CHECKs both, so that a failure shows what differs.
bool converges(live_harness& live, admin_client& admin, std::chrono::seconds limit = std::chrono::seconds(15));

// Creates Pods PREFIX0..PREFIX{count-1} in `ns` (REQUIREs each).
void create_pods(admin_client& admin, const std::string& ns, const std::string& prefix, int count);

// Objects the tests create.
json namespace_object(const std::string& name);
json pod_object(const std::string& namespace_, const std::string& name, const json& labels = json::object());
json node_object(const std::string& name);
json job_object(const std::string& namespace_, const std::string& name);

// Creates every (collection path, object) pair with `threads` clients at once; returns the
// errors ("POST path: 409 ...").
std::vector<std::string> create_all(const std::string& server, const std::string& ca_file, const std::string& token,
                                    const std::vector<std::pair<std::string, json>>& objects, int threads = 4);

}  // namespace sextant::integration
