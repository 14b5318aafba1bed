// A list query is bounded (selector terms and lengths, filter values), a filtered page is cut in
// slices as a list is rendered, and what is left after a page is counted without reading it.
#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "api/list_query.hpp"
#include "api/view_cache.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/demo_daemon.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

// `count` Pods over three namespaces, every third Running, each labelled app=a<n % 7>.
struct many_pods {
  explicit many_pods(int count) {
    std::string yaml;
    for (int n = 0; n < count; ++n) {
      yaml += "apiVersion: v1\nkind: Pod\nmetadata: {name: p" + std::to_string(10000 + n) + ", namespace: ns" +
              std::to_string(n % 3) + ", uid: u" + std::to_string(n) + ", labels: {app: a" + std::to_string(n % 7) +
              "}}\nstatus: {phase: " + (n % 3 == 0 ? "Running" : "Pending") + "}\n---\n";
    }
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("pods.yaml", yaml, false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }
  api_response get(const std::string& target) { return router.handle({"GET", target, "", ""}); }
  json body(const std::string& target) {
    api_response response = get(target);
    REQUIRE(response.status == 200);
    return json::parse(response.body);
  }
  // How many slices of no time at all the answer to `target` takes.
  int slices(const std::string& target) {
    std::unique_ptr<answer_work> work = router.begin({"GET", target, "", ""});
    int steps = 1;
    while (!work->step(std::chrono::microseconds(0))) {
      ++steps;
    }
    CHECK(work->take().status == 200);
    return steps;
  }

  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections(), clock};
  api_router router{state};
};

std::string terms(int count) {
  std::string selector;
  for (int n = 0; n < count; ++n) {
    selector += (n == 0 ? "" : ",") + std::string("k") + std::to_string(n) + "!=v";
  }
  return selector;
}

}  // namespace

TEST_CASE("a labelSelector of more terms than the limit is a 400 that names the limit", "[list-query][bounds]") {
  many_pods f(10);
  CHECK(f.get("/api/v1/core/pods?labelSelector=" + terms(20)).status == 200);
  for (int count : {21, 2200}) {
    api_response refused = f.get("/api/v1/core/pods?labelSelector=" + terms(count));
    CHECK(refused.status == 400);
    CHECK_THAT(refused.body, Catch::Contains("at most 20") && Catch::Contains("--max-selector-terms"));
  }
  f.state.limits.max_selector_terms = 3;
  CHECK(f.get("/api/v1/core/pods?labelSelector=" + terms(4)).status == 400);
  // Keys and values past the API server's own lengths, and the text quoted back is short.
  api_response long_key = f.get("/api/v1/core/pods?labelSelector=" + std::string(64, 'k') + "=v");
  CHECK(long_key.status == 400);
  CHECK(f.get("/api/v1/core/pods?labelSelector=" + std::string(254, 'p') + ".io/k=v").status == 400);
  CHECK(f.get("/api/v1/core/pods?labelSelector=" + std::string(250, 'p') + ".io/k=v").status == 200);
  api_response long_value = f.get("/api/v1/core/pods?labelSelector=k=" + std::string(5000, 'v'));
  CHECK(long_value.status == 400);
  CHECK(long_value.body.size() < 600);
}

TEST_CASE("state= and queue= take a state label and a name, bounded", "[list-query][bounds]") {
  many_pods f(10);
  CHECK(f.get("/api/v1/core/pods?state=" + std::string(64, 'x')).status == 400);
  CHECK(f.get("/api/v1/core/pods?state=" + std::string(63, 'x')).status == 200);
  api_response long_queue = f.get("/api/v1/core/pods?queue=" + std::string(15000, 'q'));
  CHECK(long_queue.status == 400);
  CHECK(long_queue.body.size() < 600);
  CHECK(f.get("/api/v1/core/pods?queue=a%2Fb").status == 400);
}

TEST_CASE("a filtered page is cut from the list in slices, as the list is rendered", "[list-query][bounds]") {
  many_pods f(3000);
  REQUIRE(f.get("/api/v1/core/pods").status == 200);  // the list model, cached
  CHECK(f.slices("/api/v1/core/pods?labelSelector=" + terms(20)) > 10);
  CHECK(f.slices("/api/v1/core/pods?state=Running") > 10);
  // A page that fills early is done early: what follows it is counted, not read.
  CHECK(f.slices("/api/v1/core/pods?state=Running&limit=2") == 1);
}

TEST_CASE("remainingItemCount: counted where it is known without reading the rest", "[list-query]") {
  many_pods f(300);
  json first = f.body("/api/v1/core/pods?limit=10");
  CHECK(first["remainingItemCount"] == 290);
  json in_namespace = f.body("/api/v1/core/pods?namespace=ns1&limit=10");
  CHECK(in_namespace["remainingItemCount"] == 90);
  json running = f.body("/api/v1/core/pods?state=Running&limit=10");
  CHECK(running["remainingItemCount"] == 90);  // every third pod, all in ns0
  json running_elsewhere = f.body("/api/v1/core/pods?state=Running&namespace=ns1&limit=10");
  CHECK(running_elsewhere["items"].empty());
  CHECK(running_elsewhere["remainingItemCount"] == 0);
  CHECK(running_elsewhere["continue"].is_null());
  // As the API server does for a list filtered by a selector: not counted, but continued.
  json selected = f.body("/api/v1/core/pods?labelSelector=app%3Da1&limit=10");
  CHECK_FALSE(selected.contains("remainingItemCount"));
  REQUIRE(selected["continue"].is_string());
  // The pages of a selector still walk every match once.
  std::size_t seen = selected["items"].size();
  std::string token = selected["continue"];
  while (!token.empty()) {
    json next = f.body("/api/v1/core/pods?labelSelector=app%3Da1&limit=10&continue=" + token);
    seen += next["items"].size();
    token = next["continue"].is_string() ? next["continue"].get<std::string>() : "";
  }
  CHECK(seen == 43);  // n % 7 == 1 for n below 300
}

TEST_CASE("a damaged continue on a computed page is a 400, as on any list", "[list-query]") {
  testing::demo_daemon demo;
  auto [status, page] = demo.get("/api/v1/dra/devices?limit=1");
  REQUIRE(status == 200);
  REQUIRE(page["continue"].is_string());
  CHECK(demo.get("/api/v1/dra/devices?continue=" + page["continue"].get<std::string>()).first == 200);
  for (const char* after : {"abc", "", "1x", "-1", "99999999999999999999"}) {
    INFO(after);
    const std::string damaged = continue_token("/api/v1/dra/devices", 0, after);
    auto [damaged_status, refusal] = demo.get("/api/v1/dra/devices?continue=" + damaged);
    CHECK(damaged_status == 400);
    CHECK_THAT(refusal["error"]["message"].get<std::string>(), Catch::Contains("damaged"));
  }
}
