#include "app/loop_monitor.hpp"

#include <catch2/catch.hpp>

using namespace sextant;
using namespace std::chrono_literals;

TEST_CASE("steps timed before the loop serves are start-up, not stalls", "[app][metrics]") {
  boost::asio::io_context io;
  metrics_registry metrics;
  loop_monitor monitor(io, metrics);

  monitor.step_took("problems", 450ms);  // a snapshot's first evaluation, before the loop runs
  CHECK(metrics.value("sextant_event_loop_max_stall_seconds") == 0);

  monitor.start();
  monitor.step_took("problems", 12ms);
  CHECK(metrics.value("sextant_event_loop_max_stall_seconds") == Approx(0.012));
  monitor.step_took("http", 3ms);  // the worst stays the worst
  CHECK(metrics.value("sextant_event_loop_max_stall_seconds") == Approx(0.012));
  monitor.stop();
}
