// A kind whose watch is broken keeps being served, and every answer built from it says since
// when it may be out of date: its lists (incomplete, with the reason), its details (a note) and
// /readyz (still ready: what was read is served). When the watch is whole again, they stop.
#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

const kind_key pod_kind{"", "Pod"};

struct stale_daemon {
  fixed_clock clock{testing::at("2026-12-06T12:00:00Z")};
  daemon_state state{all_sections(), clock};
  api_router router{state};

  stale_daemon() {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("pods.yaml", R"(
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ml, uid: p1}
status: {phase: Running}
)",
                     false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }

  json get(const std::string& target) {
    api_response response = router.handle({"GET", target, "", ""});
    REQUIRE(response.status == 200);
    return json::parse(response.body);
  }
};

const std::string said =
    "may be out of date: its watch has failed since 2026-12-06T11:58:00Z (connect: Connection refused)";

}  // namespace

TEST_CASE("a kind whose watch is broken is served, and its answers say since when they may be out of date",
          "[router][out-of-date]") {
  stale_daemon d;
  // Whole: nothing said (and the answers are cached, so the mark must reach them).
  CHECK(d.get("/api/v1/core/pods")["incomplete"] == false);
  const json notes = d.get("/api/v1/core/pods/ml/p1")["notes"];
  CHECK(d.router.readiness().body == "ok\n");

  d.state.store.set_interrupted(pod_kind,
                                watch_interruption{testing::at("2026-12-06T11:58:00Z"), "connect: Connection refused"});
  json list = d.get("/api/v1/core/pods");
  CHECK(list["items"].size() == 1);
  CHECK(list["incomplete"] == true);
  CHECK(list["incompleteReason"] == said);
  CHECK(d.get("/api/v1/core/pods?limit=1")["incompleteReason"] == said);
  json stale_notes = notes;
  stale_notes.insert(stale_notes.begin(), "These details " + said + ".");
  CHECK(d.get("/api/v1/core/pods/ml/p1")["notes"] == stale_notes);
  api_response ready = d.router.readiness();
  CHECK(ready.status == 200);
  CHECK(ready.body == "ok\nPod " + said + "\n");

  // A later failure keeps the first time and words.
  d.state.store.set_interrupted(pod_kind, watch_interruption{testing::at("2026-12-06T11:59:00Z"), "503"});
  CHECK(d.get("/api/v1/core/pods")["incompleteReason"] == said);

  d.state.store.set_interrupted(pod_kind, std::nullopt);
  CHECK(d.get("/api/v1/core/pods")["incomplete"] == false);
  CHECK(d.get("/api/v1/core/pods/ml/p1")["notes"] == notes);
  CHECK(d.router.readiness().body == "ok\n");
}
