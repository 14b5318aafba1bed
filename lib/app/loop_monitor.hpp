#pragma once
// Watches the event loop for stalls: a timer due every `interval` measures how late it fires
// (the loop was busy with one step that long), and callers time their own steps. Both go to
// /metrics as histograms, with the worst stall seen.
//
// On the event loop; not thread-safe.
#include <chrono>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "metrics/metrics_registry.hpp"

namespace sextant {

class loop_monitor {
 public:
  loop_monitor(boost::asio::io_context& io, metrics_registry& metrics,
               std::chrono::milliseconds interval = std::chrono::milliseconds(20));

  // From here on the loop serves: steps timed before (a snapshot's load and first evaluation,
  // done before the loop runs) are start-up, which no request waits on, not stalls.
  void start();
  void stop();
  // One step of work on the loop took `took` (an HTTP answer's slice, a problem evaluation).
  void step_took(const std::string& work, std::chrono::steady_clock::duration took);

 private:
  void arm();

  boost::asio::steady_timer timer_;
  metrics_registry& metrics_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point due_;
  double worst_ = 0;
  bool stopped_ = false;
  bool started_ = false;
};

}  // namespace sextant
