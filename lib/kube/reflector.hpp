#pragma once
// Keeps one kind's objects in the store in step with the API server: client-go's reflector
// contract, written as one coroutine loop over explicit states (kube-rs' watcher shape) whose
// transitions are decided apart, without I/O (reflector_transitions.hpp).
//
//   list   a streaming list (a watch with sendInitialEvents) where the server supports it;
//          else paginated (limit/continue) consistent reads. Not from resourceVersion "0":
//          the watch cache answers that with every object in one page whatever the limit
//          (150 000 Pods came as one 1.12 GB body from a 1.37 server), a body no memory
//          limit of this daemon holds. The whole result replaces the kind in the store at once.
//   watch  from the list's version with bookmarks, asking the server to end it after a random
//          5-10 minutes; a clean end re-watches from the last version seen, a 410 (answer or
//          ERROR event) lists again, other failures back off (800 ms doubling to 30 s, with
//          jitter) and re-watch. A watch silent for `watch_silence` (no event, no bookmark:
//          the server sends one about every minute) is a stalled link and counts as a failure.
//   wait   a refusal that says Retry-After (429, 503) is not tried again before that delay
//          (capped at `retry_after_cap`, stretched by up to half again so that the watches it
//          refused at once do not come back at once), nor before the backoff's own delay.
//
// A cap (the resource's `cap`) bounds what is read: lists stop there and the store says the
// kind is truncated. A 403 makes the kind unreadable. All on the event loop; `stop()` ends the
// loop soon after (the coroutine holds the reflector alive until then).
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "kube/asio.hpp"
#include "kube/backoff.hpp"
#include "kube/lister_watcher.hpp"
#include "kube/reflector_transitions.hpp"
#include "metrics/metrics_registry.hpp"
#include "store/object_store.hpp"
#include "util/time.hpp"

namespace sextant::kube {

struct reflector_options {
  std::size_t page_size = 500;
  std::size_t cap = 0;   // 0: read everything
  std::string cap_noun;  // "Resource Slices" in "cut at 500 Resource Slices"; default: Kind + "s"
  bool streaming_list = false;
  backoff_policy backoff;
  std::chrono::seconds watch_timeout_min{300};
  std::chrono::seconds watch_timeout_max{600};  // exclusive
  // No byte for this long on an open watch means a dead or stalled link. The API server sends a
  // bookmark about every minute to a watch that allows them (and the watch cache serves it), so
  // a healthy quiet watch stays well within it.
  std::chrono::seconds watch_silence{150};
  std::chrono::seconds retry_after_cap{60};  // a longer Retry-After is waited out only this long
  // How a backoff is waited out; by default a timer on the event loop. Tests give one that moves
  // their injected clock instead, so that none of them waits on real time.
  std::function<net::awaitable<void>(std::chrono::milliseconds)> sleep;
};

// Metric families the reflectors write (label: resource).
namespace reflector_metrics {
inline constexpr const char* list_restarts = "sextant_watch_list_restarts_total";
inline constexpr const char* watch_restarts = "sextant_watch_restarts_total";
inline constexpr const char* relists_gone = "sextant_watch_relists_gone_total";
inline constexpr const char* last_sync = "sextant_watch_last_sync_timestamp_seconds";
inline constexpr const char* watch_events = "sextant_watch_events_total";
void describe(metrics_registry& metrics);
}  // namespace reflector_metrics

class reflector {
 public:
  enum class phase { starting, listing, watching, backing_off, stopped };

  // `store`, `metrics` and `wall` must outlive the reflector's coroutine. `name` labels logs
  // and metrics ("workloads.kueue.x-k8s.io"). `on_not_found` runs when the server answers 404
  // (the resource is gone: discovery should look again).
  reflector(net::any_io_executor executor, kind_key type, std::string name, std::unique_ptr<lister_watcher> source,
            object_store& store, metrics_registry& metrics, const clock& wall, reflector_options options,
            std::function<void()> on_not_found = {});

  // The loop; co_spawn it with the shared pointer, which it keeps until it ends.
  static net::awaitable<void> run(std::shared_ptr<reflector> self);
  void stop();

  bool synced() const { return synced_; }
  bool finished() const { return phase_ == phase::stopped; }
  phase current_phase() const { return phase_; }
  const kind_key& type() const { return type_; }
  const std::string& name() const { return name_; }
  const std::string& resource_version() const { return resource_version_; }
  const std::string& last_error() const { return last_error_; }
  // Whether the last (or current) list was a streaming one.
  bool streaming() const { return streaming_used_; }
  std::size_t cap() const { return options_.cap; }

 private:
  net::awaitable<void> loop();
  // The I/O of the current state's step, and what it came to.
  net::awaitable<reflection::outcome> take_step();
  net::awaitable<reflection::outcome> list_all(const reflection::empty& now);
  net::awaitable<reflection::outcome> open_watch(const reflection::listed& now);
  net::awaitable<reflection::outcome> paged_list();
  net::awaitable<reflection::outcome> streaming_list();
  net::awaitable<reflection::outcome> consume(watch_stream& stream);
  net::awaitable<void> pause();
  // Carries out what the transition out of a step asks besides the next state.
  void perform(const reflection::effects& effect, reflection::outcome::kind what, const api_error& error);
  // Applies one watch event; returns an error for an ERROR event.
  std::optional<api_error> apply(decoded_watch_event& event);
  void mark_synced();
  void mark_unreadable(const api_error& error, std::string_view during);
  std::chrono::seconds watch_timeout();
  void set_truncated();

  net::any_io_executor executor_;
  kind_key type_;
  std::string name_;
  std::unique_ptr<lister_watcher> source_;
  object_store& store_;
  metrics_registry& metrics_;
  const clock& wall_;
  reflector_options options_;
  std::function<void()> on_not_found_;

  backoff backoff_;
  net::steady_timer pause_timer_;
  std::mt19937_64 random_;
  // Where the loop is, with what it needs there; kept across a restart after a throw.
  reflection::state state_;
  phase phase_ = phase::starting;
  bool stopped_ = false;
  // What the reflector shows of the kind, whatever the state.
  bool synced_ = false;
  bool truncated_ = false;
  bool streaming_used_ = false;
  std::string resource_version_;  // the last version seen: what a watch resumes from
  std::string last_error_;
  std::optional<std::chrono::seconds> retry_after_;  // of the failure the next pause follows
};

}  // namespace sextant::kube
