// Faults between the daemon and a live API server that a restart or a compaction does not
// make: a watch that stalls without closing, a connection reset halfway through an event, 429s
// with Retry-After and bursts of 500/503. tests/faultproxy sits between the two and injects
// them; its record of every request shows how often and how soon the daemon came back.
#include <algorithm>
#include <map>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "kube/reflector.hpp"
#include "live_harness.hpp"
#include "sections/core/core_section.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const kind_key faulted_pods{"", "Pod"};
const std::string pods_path = "/api/v1/pods";

double pods_metric(const live_harness& live, const char* name) {
  return live.metric(name, {{"resource", "pods"}});
}

// Lists of a collection, paged (the daemon always asks a limit) or streaming (a watch sending
// the initial events): not discovery's GETs.
std::size_t lists_since(const std::vector<proxied_request>& all, long long since_ms) {
  return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [&](const proxied_request& r) {
    return !r.watch && r.ms >= since_ms &&
           (r.query.find("limit=") != std::string::npos || r.query.find("sendInitialEvents=true") != std::string::npos);
  }));
}

// The lists counted by lists_since, one a line, to say which they were when there should be none.
std::string lists_described(const std::vector<proxied_request>& all, long long since_ms) {
  std::string out;
  for (const proxied_request& r : all) {
    if (!r.watch && r.ms >= since_ms &&
        (r.query.find("limit=") != std::string::npos || r.query.find("sendInitialEvents=true") != std::string::npos)) {
      out += std::to_string(r.ms) + " ms " + r.path + "?" + r.query + " -> " + std::to_string(r.status) + "\n";
    }
  }
  return out;
}

// The first request the proxy recorded with `fault`, once there is one (the loop runs meanwhile).
std::optional<proxied_request> wait_for_fault(live_harness& live, const fault_proxy& proxy, const std::string& fault,
                                              bool ended, std::chrono::seconds limit, bool* pods_marked = nullptr) {
  std::optional<proxied_request> found;
  live.run_until(
      [&] {
        if (pods_marked != nullptr && live.store.interrupted(faulted_pods)) {
          *pods_marked = true;  // the views and /readyz said the Pods may be out of date
        }
        for (const proxied_request& r : proxy.requests()) {
          if (r.fault == fault && (!ended || r.end_ms >= 0)) {
            found = r;
            return true;
          }
        }
        live.run_for(std::chrono::milliseconds(100));
        return false;
      },
      limit);
  return found;
}

// The test's latest moment on the proxy's clock: the newest request it recorded.
long long proxy_now(const fault_proxy& proxy) {
  long long latest = 0;
  for (const proxied_request& r : proxy.requests()) {
    latest = std::max({latest, r.ms, r.end_ms});
  }
  return latest;
}

}  // namespace

TEST_CASE("a watch that stalls without closing is given up on after its bounded silence and resumed",
          "[integration][faults]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 10);
  fault_proxy proxy(cluster);
  kube::live_options options = fast_options();
  const auto silence = std::chrono::seconds(6);  // the daemon's default is 150 s
  options.reflector.watch_silence = silence;
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()}, options);
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));

  // The watch of Pods goes silent with its connection open; what changes meanwhile is unheard.
  proxy.stall(pods_path);
  create_pods(admin, "ml", "unheard-", 5);
  REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/before-0").ok());
  bool marked = false;
  std::optional<proxied_request> stalled =
      wait_for_fault(live, proxy, "stall", true, std::chrono::seconds(30), &marked);
  REQUIRE(stalled);
  // Said while it lasted: from the give-up until the watch is open again.
  REQUIRE(live.run_until([&] {
    marked = marked || live.store.interrupted(faulted_pods).has_value();
    return marked;
  }));
  CHECK(stalled->path == pods_path);
  CHECK(live.ready());  // what it knows is still served
  CHECK_THAT(live.live->find_watch(faulted_pods)->last_error(), Catch::Contains("no data for 6s"));

  REQUIRE(converges(live, admin));
  CHECK(live.store.count(faulted_pods) == 10 + 5 - 1);
  const std::vector<proxied_request> all = proxy.requests();
  // Given up on after the silence (not the watch's 5-10 minutes), and watched again at once
  // after the backoff (at most 1 s here), from the version it had: no relist.
  const long long silent_for = stalled->end_ms - stalled->stall_ms;
  CHECK(silent_for >= 5900);
  CHECK(silent_for <= 9000);
  std::vector<proxied_request> after = requests_to(all, pods_path, true, stalled->stall_ms + 1);
  REQUIRE_FALSE(after.empty());
  CHECK(after.front().ms - stalled->stall_ms <= 6000 + 1000 + 2000);
  CHECK(after.front().query.find("resourceVersion=") != std::string::npos);
  CHECK(requests_to(all, pods_path, false, stalled->stall_ms).empty());
  CHECK(pods_metric(live, kube::reflector_metrics::watch_restarts) >= 1);
  CHECK(pods_metric(live, kube::reflector_metrics::relists_gone) == 0);
  CHECK(live.ready());
  CHECK_FALSE(live.store.interrupted(faulted_pods).has_value());
}

TEST_CASE("a connection reset halfway through a watch event loses and duplicates nothing", "[integration][faults]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 10);
  fault_proxy proxy(cluster);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));

  // The next Pod event arrives half written, then the connection is reset.
  proxy.cut(pods_path);
  create_pods(admin, "ml", "cut-", 1);
  std::optional<proxied_request> cut = wait_for_fault(live, proxy, "cut", true, std::chrono::seconds(20));
  REQUIRE(cut);
  CHECK(cut->path == pods_path);
  // More changes while it resumes: the resumed watch must carry them all, the cut event included.
  create_pods(admin, "ml", "after-", 5);
  answer current = admin.get("/api/v1/namespaces/ml/pods/before-1");
  REQUIRE(current.ok());
  json changed = current.body();
  changed["metadata"]["labels"]["changed"] = "yes";
  REQUIRE(admin.put("/api/v1/namespaces/ml/pods/before-1", changed).ok());
  REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/before-2").ok());

  REQUIRE(converges(live, admin));
  CHECK(live.store.count(faulted_pods) == 10 + 1 + 5 - 1);
  REQUIRE(live.store.get(faulted_pods, "ml", "cut-0") != nullptr);
  const std::vector<proxied_request> all = proxy.requests();
  // The cut watch (a streaming list that had turned into the watch) resumed from its version.
  INFO(lists_described(all, cut->end_ms));
  CHECK(lists_since(all, cut->end_ms) == 0);
  CHECK(requests_to(all, pods_path, true, cut->end_ms).size() >= 1);
  CHECK(pods_metric(live, kube::reflector_metrics::watch_restarts) >= 1);
  CHECK(live.ready());
}

TEST_CASE("429 with Retry-After on lists and watches: no retry before it, no hot loop, no relist",
          "[integration][faults]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 10);
  fault_proxy proxy(cluster);
  // The first three lists of Pods are throttled, each asking for 2 s.
  proxy.refuse(pods_path, "list", 3, 429, 2);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  // Meanwhile readiness says which kind it still waits for.
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(100));
        return requests_to(proxy.requests(), pods_path, false).size() >= 2;
      },
      std::chrono::seconds(20)));
  std::vector<std::string> waiting = live.live->readiness();
  CHECK(std::find(waiting.begin(), waiting.end(), "pods") != waiting.end());
  CHECK_FALSE(live.ready());
  CHECK_THAT(live.live->find_watch(faulted_pods)->last_error(), Catch::Contains("429"));
  REQUIRE(live.run_until([&] { return live.ready(); }, std::chrono::seconds(30)));
  REQUIRE(converges(live, admin));

  std::vector<proxied_request> lists = requests_to(proxy.requests(), pods_path, false);
  REQUIRE(lists.size() == 4);  // three refused, one answered: no more
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(lists[i].status == 429);
    const long long gap = lists[i + 1].ms - lists[i].ms;
    INFO("list " << i + 1 << " came " << gap << " ms after a 429 saying 2 s");
    CHECK(gap >= 2000);
    CHECK(gap <= 2000 + 1000 + 1500);  // jitter up to half again, and the loop's own slack
  }
  CHECK(lists[3].status == 200);

  // Watches throttled too: the Pod watch breaks, and its next two opens are refused.
  proxy.refuse(pods_path, "watch", 2, 429, 2);
  proxy.cut(pods_path);
  const long long mark = proxy_now(proxy) + 1;  // after every request so far
  create_pods(admin, "ml", "during-", 3);
  REQUIRE(wait_for_fault(live, proxy, "cut", true, std::chrono::seconds(20)));
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(100));
        std::vector<proxied_request> watches = requests_to(proxy.requests(), pods_path, true, mark);
        return watches.size() >= 3;  // two refused, then the one that held
      },
      std::chrono::seconds(20)));
  REQUIRE(converges(live, admin));
  const std::vector<proxied_request> all = proxy.requests();
  std::vector<proxied_request> watches = requests_to(all, pods_path, true, mark);
  std::size_t refused = 0;
  for (std::size_t i = 0; i + 1 < watches.size(); ++i) {
    if (watches[i].status == 429) {
      ++refused;
      INFO("watch " << i + 1 << " came " << watches[i + 1].ms - watches[i].ms << " ms after a 429 saying 2 s");
      CHECK(watches[i + 1].ms - watches[i].ms >= 2000);
    }
  }
  CHECK(refused == 2);
  CHECK(watches.size() <= 4);  // no hot loop
  INFO(lists_described(all, mark));
  CHECK(lists_since(all, mark) == 0);           // throttled watches are re-opened, never relisted
  CHECK(live.store.count(faulted_pods) == 13);  // 10 before, 3 during
  CHECK(live.ready());
}

TEST_CASE("bursts of 500 and 503: every watch backs off with jitter, none relists, the cache converges",
          "[integration][faults]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 10);
  fault_proxy proxy(cluster);
  // The first lists of Pods fail with 500: the backoff grows between them (100 ms doubling here).
  proxy.refuse(pods_path, "list", 3, 500);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));
  std::vector<proxied_request> lists = requests_to(proxy.requests(), pods_path, false);
  REQUIRE(lists.size() == 4);
  CHECK(lists[1].ms - lists[0].ms >= 100);
  CHECK(lists[2].ms - lists[1].ms >= 200);
  CHECK(lists[3].ms - lists[2].ms >= 400);

  // Every open watch is reset at once and the server answers the next 40 watch opens with 503.
  const long long mark = proxy_now(proxy) + 1;  // after every request so far
  proxy.refuse("", "watch", 40, 503);
  const int dropped = proxy.drop_watches();
  REQUIRE(dropped >= 3);
  create_pods(admin, "ml", "during-", 5);
  REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/before-0").ok());
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(100));
        std::vector<proxied_request> all = proxy.requests();
        return std::count_if(all.begin(), all.end(),
                             [&](const proxied_request& r) { return r.ms >= mark && r.status == 503; }) >= 40;
      },
      std::chrono::seconds(30)));
  REQUIRE(converges(live, admin, std::chrono::seconds(20)));
  CHECK(live.store.count(faulted_pods) == 10 + 5 - 1);

  const std::vector<proxied_request> all = proxy.requests();
  INFO(lists_described(all, mark));
  CHECK(lists_since(all, mark) == 0);  // no thundering relist: every watch resumed from its version
  // Per collection, attempts after a 503 are spaced by the backoff (at least its first 100 ms,
  // growing), never a hot loop.
  std::map<std::string, std::vector<proxied_request>> by_path;
  for (const proxied_request& r : all) {
    if (r.watch && r.ms >= mark) {
      by_path[r.path].push_back(r);
    }
  }
  for (const auto& [path, watches] : by_path) {
    for (std::size_t i = 0; i + 1 < watches.size(); ++i) {
      if (watches[i].status == 503) {
        INFO(path << ": watch " << i + 1 << " came " << watches[i + 1].ms - watches[i].ms << " ms after a 503");
        CHECK(watches[i + 1].ms - watches[i].ms >= 100);
      }
    }
    CHECK(watches.size() <= 41);
  }
  CHECK(live.ready());
}
