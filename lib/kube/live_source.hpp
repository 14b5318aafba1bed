#pragma once
// The live cluster as the daemon's source of objects: discovery, then one reflector per kind
// the plan asks for (kube/watch_spec.hpp), all feeding one object_store; snapshot mode's
// counterpart. What to watch comes from the planner alone: this folder knows no section.
//
// A supervisor coroutine re-reads discovery every minute (sooner when a watch answers 404),
// updates `served_kinds` when it changed (every cached view is rendered against it), and starts,
// re-versions or stops reflectors to match. A kind that one discovery stops listing is kept until
// a second, five seconds later, agrees. Kinds the
// plan marks with a demand category are watched only while that problem category is on or
// someone asked for them (`demand`) in the last few minutes.
//
// Lives on the event loop; not thread-safe. `stop()` ends every watch; the io_context must
// keep running until `finished()` before the live_source is destroyed.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ingest/ingest_profile.hpp"
#include "ingest/json_decoder.hpp"
#include "kube/api_client.hpp"
#include "kube/reflector.hpp"
#include "kube/watch_spec.hpp"
#include "metrics/metrics_registry.hpp"
#include "store/object_store.hpp"
#include "store/served_kinds.hpp"

namespace sextant::kube {

struct live_options {
  std::chrono::seconds discovery_interval{60};
  std::chrono::seconds demand_ttl{300};  // an on-demand watch stops this long after the last ask
  reflector_options reflector;           // its cap and streaming flag are set per watch
  bool streaming_lists = true;           // use sendInitialEvents where the server has it
  int streaming_min_minor = 32;          // servers older than 1.<this> are not asked
  credential_options credentials;        // the exec plugin's timeout and retry pauses
};

class live_source {
 public:
  // `store`, `served`, `metrics` and `wall` must outlive this object.
  live_source(net::any_io_executor executor, connection_config config, watch_planner planner, ingest_profiles profiles,
              object_store& store, served_kinds& served, metrics_registry& metrics, const clock& wall,
              live_options options = {});
  ~live_source();
  live_source(const live_source&) = delete;
  live_source& operator=(const live_source&) = delete;

  // Checks what can be checked before connecting (CA, client certificate); error or empty.
  std::string init();
  void start();
  void stop();
  bool finished() const { return finished_; }

  // Whether a problem category is on (the problem engine's setting). Without one, each
  // category's default applies. Call `categories_changed()` after a change.
  void set_category_check(std::function<bool(const std::string&)> enabled);
  void categories_changed();
  // Someone needs this kind now (a details page): watch it if it is demand-gated.
  void demand(const kind_key& type);
  // Read discovery again soon (a watch answered 404).
  void rediscover();

  // Names of started watches not yet synced; "discovery" until discovery first succeeded.
  std::vector<std::string> readiness() const;
  // Names of started watches the API server forbids: synced as far as they can be (readiness
  // does not wait for them), but nothing of them is known.
  std::vector<std::string> forbidden() const;
  bool discovered() const { return discovered_; }
  const std::string& discovery_error() const { return discovery_error_; }
  // Running watches, by name, with their version: "workloads.kueue.x-k8s.io" -> "v1beta2".
  std::map<std::string, std::string> watches() const;
  const reflector* find_watch(const kind_key& type) const;
  api_client& client() { return client_; }

 private:
  struct running {
    watch_spec spec;
    std::shared_ptr<reflector> watch;
    // Replaces a synced watch of the kind at another version: what that one read is still served,
    // said to be out of date, so readiness does not wait for this one's first list.
    bool replaces_synced = false;
  };

  static net::awaitable<void> supervise(live_source* self, std::shared_ptr<bool> alive);
  void reconcile();
  bool wanted(const watch_spec& spec, std::chrono::steady_clock::time_point now) const;
  void start_watch(const watch_spec& spec, bool replaces_synced = false);
  void stop_watch(const kind_key& type, bool clear, bool quiet = false);
  // A planned kind that must not be watched now (its namespace is not known): nothing of it is
  // known, and its lists say why.
  void hold_unwatched(const watch_spec& spec);
  // After a discovery: kinds it no longer lists are kept until the next one agrees
  // (kube/vanished_kinds.hpp).
  void confirm_vanished_kinds(const std::vector<served_kind>& before, served_kinds& discovered);
  void wake();
  void collect(metrics_registry& metrics) const;

  net::any_io_executor executor_;
  watch_planner planner_;
  ingest_profiles profiles_;
  object_store& store_;
  served_kinds& served_;
  metrics_registry& metrics_;
  const clock& wall_;
  live_options options_;
  api_client client_;
  json_decoder decoder_;

  std::map<kind_key, running> running_;
  std::map<kind_key, watch_spec> held_;  // planned, but not watched until their namespace is known
  std::map<kind_key, std::chrono::steady_clock::time_point> demanded_;
  std::set<kind_key> known_empty_;  // section kinds the cluster does not serve: complete and empty
  std::set<kind_key> vanishing_;    // missing from the last discovery only: served until the next agrees
  std::function<bool(const std::string&)> category_enabled_;

  net::steady_timer wake_timer_;
  bool wake_requested_ = false;
  bool rediscover_requested_ = true;
  bool started_ = false;
  bool stopped_ = false;
  bool finished_ = false;
  bool discovered_ = false;
  int server_minor_ = 0;
  std::string discovery_error_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace sextant::kube
