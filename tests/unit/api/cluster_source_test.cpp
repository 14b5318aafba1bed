// The router asks the daemon's cluster_source, whichever it is: a daemon starts on a snapshot's
// (ready, nothing forbidden, no logs), and a settings change that was stored reaches the source,
// so that the watches a category gates follow it; one that was refused does not.
#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "sections/registry.hpp"
#include "support/fixtures.hpp"
#include "support/scripted_cluster.hpp"

using namespace sextant;

TEST_CASE("a daemon's state starts on a snapshot's source: ready, nothing forbidden, no logs", "[router][source]") {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections(), clock};
  REQUIRE(state.source);
  CHECK(state.source->unsynced().empty());
  CHECK(state.source->forbidden().empty());
  CHECK_FALSE(state.source->serves_pod_logs());
  api_router router{state};
  api_response ready = router.readiness();
  CHECK(ready.status == 200);
  CHECK(ready.body == "ok\n");
}

TEST_CASE("a stored settings change reaches the cluster source; a refused one does not", "[router][source]") {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections(), clock};
  testing::scripted_cluster& cluster = testing::scripted_cluster::install(state);
  api_router router{state};
  api_response refused =
      router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": {"nope": {"enabled": true}}})"});
  CHECK(refused.status == 400);
  CHECK(cluster.settings_changes == 0);
  api_response stored =
      router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": {"dra": {"enabled": false}}})"});
  CHECK(stored.status == 200);
  CHECK(cluster.settings_changes == 1);
  CHECK_FALSE(state.problems.enabled("dra"));
}
