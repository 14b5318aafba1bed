// Probes on a port and thread of their own: answered from what the loop published, and failing
// liveness only when the loop has really stopped running.
#include <signal.h>

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "app/probe_server.hpp"
#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"

using namespace sextant;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

TEST_CASE("liveness holds while the loop beats and fails, naming the silence, once it stops", "[probes]") {
  probe_status status;
  const steady::time_point t0 = steady::now();
  CHECK(status.healthz(t0, 10s).status == 200);  // before the loop's first beat: start-up, not a hang
  status.beat(t0);
  CHECK(status.healthz(t0 + 9s, 10s).status == 200);
  api_response stalled = status.healthz(t0 + 12s, 10s);
  CHECK(stalled.status == 503);
  CHECK_THAT(stalled.body, Catch::Contains("the event loop has not run for 12 s"));
}

TEST_CASE("readiness is the loop's own answer, not ready before the first one or while the loop is silent",
          "[probes]") {
  probe_status status;
  const steady::time_point t0 = steady::now();
  api_response before = status.readyz(t0, 10s);
  CHECK(before.status == 503);
  CHECK_THAT(before.body, Catch::Contains("nothing read yet"));

  status.beat(t0);
  status.publish_readiness(error_response(503, "Unavailable", "not synced yet: Pod"));
  CHECK(status.readyz(t0, 10s).status == 503);
  CHECK_THAT(status.readyz(t0, 10s).body, Catch::Contains("not synced yet: Pod"));

  api_response ok;
  ok.content_type = "text/plain; charset=utf-8";
  ok.body = "ok\n";
  status.publish_readiness(ok);
  CHECK(status.readyz(t0 + 1s, 10s).status == 200);
  CHECK(status.readyz(t0 + 11s, 10s).status == 503);
}

TEST_CASE("the probe port answers /healthz and /readyz from its own thread, and nothing else", "[probes][e2e]") {
  unsigned short probe_port = testing::free_port();
  testing::daemon_process daemon({"--snapshot", (testing::source_dir() / "examples/demo-cluster").string(), "--now",
                                  "2026-11-29T12:00:00Z", "--probe-listen", "127.0.0.1:" + std::to_string(probe_port)});
  // The loop publishes readiness within a publish interval of serving.
  testing::http_reply ready;
  for (int i = 0; i < 40 && ready.status != 200; ++i) {
    ready = testing::http_call(probe_port, "GET", "/readyz");
    if (ready.status != 200) {
      std::this_thread::sleep_for(50ms);
    }
  }
  CHECK(ready.status == 200);
  CHECK(ready.body == "ok\n");
  CHECK(testing::http_call(probe_port, "GET", "/healthz").status == 200);
  CHECK(testing::http_call(probe_port, "HEAD", "/healthz").status == 200);
  CHECK(testing::http_call(probe_port, "GET", "/api/v1/sections").status == 404);
  CHECK(testing::http_call(probe_port, "POST", "/healthz").status == 405);
  // The API port keeps its own probes.
  CHECK(testing::http_call(daemon.port(), "GET", "/healthz").status == 200);
  CHECK(daemon.stop(SIGTERM, 5s) == 0);
}
