#include "app/loop_monitor.hpp"

namespace sextant {
namespace {

// 0.5 ms .. 2.5 s: a healthy loop stays in the first buckets, a stall shows where it lands.
const std::vector<double> stall_bounds = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5};

}  // namespace

loop_monitor::loop_monitor(boost::asio::io_context& io, metrics_registry& metrics, std::chrono::milliseconds interval)
    : timer_(io), metrics_(metrics), interval_(interval) {
  metrics_.describe_histogram("sextant_event_loop_lag_seconds",
                              "How late a timer due every 20 ms fired: how long the event loop was busy.",
                              stall_bounds);
  metrics_.describe_histogram("sextant_event_loop_step_seconds",
                              "How long one step of work held the event loop, by work.", stall_bounds);
  metrics_.describe("sextant_event_loop_max_stall_seconds", metrics_registry::metric_type::gauge,
                    "The longest the event loop was held at once since start (timer lag or a timed step).");
  metrics_.set("sextant_event_loop_max_stall_seconds", {}, 0);
}

void loop_monitor::start() {
  started_ = true;
  stopped_ = false;
  arm();
}

void loop_monitor::stop() {
  stopped_ = true;
  timer_.cancel();
}

void loop_monitor::arm() {
  due_ = std::chrono::steady_clock::now() + interval_;
  timer_.expires_at(due_);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopped_) {
      return;
    }
    const double lag = std::chrono::duration<double>(std::chrono::steady_clock::now() - due_).count();
    metrics_.observe("sextant_event_loop_lag_seconds", {}, lag);
    if (lag > worst_) {
      worst_ = lag;
      metrics_.set("sextant_event_loop_max_stall_seconds", {}, worst_);
    }
    arm();
  });
}

void loop_monitor::step_took(const std::string& work, std::chrono::steady_clock::duration took) {
  if (!started_) {
    return;
  }
  const double seconds = std::chrono::duration<double>(took).count();
  metrics_.observe("sextant_event_loop_step_seconds", {{"work", work}}, seconds);
  if (seconds > worst_) {
    worst_ = seconds;
    metrics_.set("sextant_event_loop_max_stall_seconds", {}, worst_);
  }
}

}  // namespace sextant
