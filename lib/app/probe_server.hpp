#pragma once
// /healthz and /readyz on a port and a thread of their own. On the API port a probe waits its
// turn behind renders and gzip slices; a kubelet with a 1 s timeout would then restart a busy
// but healthy Pod. Here a probe is answered at once from what the event loop last published:
// its readiness (refreshed every `publish_interval`) and a heartbeat. A loop that has not beaten
// for `stall_limit` fails liveness, so a loop that really hangs is still restarted.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "api/http_types.hpp"
#include "http/http_server.hpp"

namespace sextant {

// What the loop tells the probe thread. Thread-safe: written on the loop, read by the probes.
class probe_status {
 public:
  using steady = std::chrono::steady_clock;

  void beat(steady::time_point at) { heartbeat_.store(at.time_since_epoch().count(), std::memory_order_relaxed); }
  void publish_readiness(api_response readiness);

  // 200 while the loop beats; 503 naming how long it has not.
  api_response healthz(steady::time_point now, steady::duration stall_limit) const;
  // The loop's own readiness answer, or 503 while the loop does not beat (or never published).
  api_response readyz(steady::time_point now, steady::duration stall_limit) const;

 private:
  // How long ago the loop last beat, or nullopt when it never has.
  std::optional<steady::duration> silent_for(steady::time_point now) const;

  std::atomic<steady::rep> heartbeat_{0};
  mutable std::mutex mutex_;
  std::optional<api_response> readiness_;
};

class probe_server {
 public:
  // The loop refreshes readiness this often; a probe may see an answer this old.
  static constexpr auto publish_interval = std::chrono::milliseconds(250);
  // A loop silent this long is hung, not busy: the longest step it takes is milliseconds.
  static constexpr auto stall_limit = std::chrono::seconds(10);

  probe_server(http_server_options options, std::shared_ptr<const probe_status> status);
  ~probe_server();
  probe_server(const probe_server&) = delete;
  probe_server& operator=(const probe_server&) = delete;

  // Binds (throws std::system_error naming the address when it cannot), then serves on its thread.
  void start();
  unsigned short port() const { return server_->port(); }
  // Stops serving and joins the thread.
  void stop();

 private:
  boost::asio::io_context io_;
  std::shared_ptr<const probe_status> status_;
  std::unique_ptr<http_server> server_;
  std::thread thread_;
};

// On the event loop: beats and publishes `readiness()` every probe_server::publish_interval.
class probe_publisher {
 public:
  probe_publisher(boost::asio::io_context& io, std::shared_ptr<probe_status> status,
                  std::function<api_response()> readiness);
  void start();
  void stop();

 private:
  void publish_and_arm();

  boost::asio::steady_timer timer_;
  std::shared_ptr<probe_status> status_;
  std::function<api_response()> readiness_;
  bool stopped_ = false;
};

}  // namespace sextant
