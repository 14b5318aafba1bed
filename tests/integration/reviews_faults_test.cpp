// Callers while the API server cannot answer their TokenReviews or SubjectAccessReviews: it
// answers 500, 503 or 429, resets the connection, never answers, or is killed and restarted.
// Each caller must get 503 with the error envelope and Retry-After meanwhile (never a 401 or 403
// the server did not give), nothing may be kept as a verdict, and once the server answers
// again the same callers get its verdicts at once: an allowed caller 200, a denied one 403, a
// token nobody issued 401, including callers whose first request fell in the outage.
//
// The callers are ServiceAccounts with tokens from the TokenRequest API, fresh ones for each
// fault so that no verdict of an earlier one can answer for them: those in `readers` may get
// /sextant/metrics (the permission of GET /metrics), those in `strangers` nothing.
#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "live_harness.hpp"
#include "live_objects.hpp"
#include "review_callers.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

namespace {

const std::string token_reviews = "/apis/authentication.k8s.io/v1/tokenreviews";
const std::string access_reviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

// One way the API server fails the reviews of `path`, armed on the proxy until cleared.
struct review_fault {
  std::string name;
  std::string path;
  std::function<void(fault_proxy&)> arm;
  steady::duration pause;  // how long the gate waits after a failure before it probes again
  int attempts = 1;        // proxy requests per review (a reset pooled connection is tried once more)
};

std::vector<proxied_request> requests_from(const fault_proxy& proxy, std::size_t first_id, const std::string& path) {
  std::vector<proxied_request> out;
  for (const proxied_request& r : proxy.requests()) {
    if (r.id >= static_cast<int>(first_id) && r.path == path) {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("reviews the API server fails (500, 503, 429, reset): 503 with Retry-After, no storm, then its verdicts",
          "[integration][auth][faults]") {
  const steady::time_point test_started = steady::now();
  test_cluster cluster;
  admin_client admin = cluster.admin();
  fault_proxy proxy(cluster);
  caller_factory factory(admin);
  // Every caller is one client (127.0.0.1), and each fault's new callers cost the bad-token
  // budget a review or two once the server answers: refilled at 10 a second, it still holds only
  // its burst of 10, so the 30 made-up tokens of an outage would exhaust it if they were charged.
  sextantd_process live(
      {"--kubeconfig", kubeconfig_through(cluster, proxy), "--auth=kubernetes", "--bad-tokens-per-minute=600"},
      cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(60s));
  const std::string url = live.url();

  const callers warm = factory.fresh("warm");
  require_verdicts(url, warm);
  const std::string ready_before = http_get(url, "/readyz").text;
  const std::size_t first_fault_id = proxy.requests().size();

  const std::vector<review_fault> faults{
      {"tr-503", token_reviews, [](fault_proxy& p) { p.refuse(token_reviews, "any", 100000, 503, 2); }, 2s},
      {"tr-500", token_reviews, [](fault_proxy& p) { p.refuse(token_reviews, "any", 100000, 500); }, 1s},
      {"tr-429", token_reviews, [](fault_proxy& p) { p.refuse(token_reviews, "any", 100000, 429, 3); }, 3s},
      {"tr-reset", token_reviews, [](fault_proxy& p) { p.reset(token_reviews, 100000); }, 1s, 2},
      {"sar-503", access_reviews, [](fault_proxy& p) { p.refuse(access_reviews, "any", 100000, 503, 2); }, 2s},
      {"sar-500", access_reviews, [](fault_proxy& p) { p.refuse(access_reviews, "any", 100000, 500); }, 1s},
      {"sar-429", access_reviews, [](fault_proxy& p) { p.refuse(access_reviews, "any", 100000, 429, 3); }, 3s},
      {"sar-reset", access_reviews, [](fault_proxy& p) { p.reset(access_reviews, 100000); }, 1s, 2},
  };
  for (const review_fault& fault : faults) {
    INFO("fault " << fault.name);
    const bool token_fault = fault.path == token_reviews;
    // Callers never seen before: their first requests fall in the outage.
    const callers fresh = factory.fresh(fault.name);
    const std::size_t first_id = proxy.requests().size();
    fault.arm(proxy);

    // Many callers, for 2.5 s: the allowed and denied ones, and (when TokenReviews fail) a new
    // made-up token each time, which would use the client's budget for bad tokens up (10)
    // if a failed review were charged to it.
    std::vector<std::string> tokens{fresh.allowed, fresh.denied};
    std::atomic<int> made_up{0};
    int wrong = 0;
    const steady::time_point storm_started = steady::now();
    const int asked = storm(url, tokens, 2500ms, [&](const std::string& token, const answer& got) {
      if (!unavailable(got)) {
        ++wrong;
        INFO((token == fresh.allowed ? "allowed" : "denied") << " caller answered " << describe(got));
        CHECK(unavailable(got));
      }
    });
    if (token_fault) {
      for (int n = 0; n < 30; ++n) {
        answer got = http_as("not-a-token-" + fault.name + "-" + std::to_string(made_up++), "GET", url, guarded);
        INFO("a made-up token answered " << describe(got));
        CHECK(unavailable(got));
      }
    } else {
      // The token's verdict needs no permission check: the server's 401 meanwhile.
      CHECK(status_of(url, fresh.unknown) == 401);
    }
    const steady::duration storm_length = steady::now() - storm_started;
    CHECK(wrong == 0);
    check_ready_unchanged(url, ready_before);

    // What bounds the reviews: the first each thread sent before any had failed, then one probe
    // per pause (the server's Retry-After, capped at 5 s; else 1 s), whatever the number of
    // callers.
    const std::size_t reviews = requests_from(proxy, first_id, fault.path).size();
    const double pauses = std::chrono::duration<double>(storm_length) / std::chrono::duration<double>(fault.pause);
    const std::size_t bound = static_cast<std::size_t>(fault.attempts * (4 + pauses + 1));
    INFO(asked << " requests in " << std::chrono::duration<double>(storm_length).count() << " s; " << reviews
               << " reviews, at most " << bound);
    CHECK(asked >= 40);
    CHECK(reviews >= 1);
    CHECK(reviews <= bound);

    // The server answers again: at once (within the pause and a probe), each its verdict.
    proxy.clear();
    check_verdicts_at_once(url, fresh, fault.pause + 1500ms);
    check_verdicts_at_once(url, warm, 1s);
    // No budget was spent on the outage: a new made-up token is reviewed, and refused as such.
    CHECK(status_of(url, "not-a-token-after-" + fault.name) == 401);
    check_ready_unchanged(url, ready_before);
  }

  // The daemon's watches never noticed: no kind was listed again.
  std::set<std::string> watched;
  for (const proxied_request& r : proxy.requests()) {
    if (r.watch) {
      watched.insert(r.path);
    }
  }
  CHECK_FALSE(watched.empty());
  for (const proxied_request& r : proxy.requests()) {
    if (r.id >= static_cast<int>(first_fault_id) && !r.watch && watched.count(r.path) > 0) {
      FAIL_CHECK("listed again during the review faults: " << r.path << "?" << r.query);
    }
  }
  WARN("reviews under 500/503/429/reset took "
       << std::chrono::duration_cast<std::chrono::seconds>(steady::now() - test_started).count() << " s");
}

TEST_CASE("reviews the API server takes and never answers: each bounded by the review timeout, then its verdicts",
          "[integration][auth][faults]") {
  const steady::time_point test_started = steady::now();
  test_cluster cluster;
  admin_client admin = cluster.admin();
  fault_proxy proxy(cluster);
  caller_factory factory(admin);
  // Verdicts kept for a minute, so that one caller's, asked before any fault, outlasts both rounds:
  // asked after the first round, its "no" would be kept only a second (the server has just come
  // back from failing reviews, and its "no" may be "not yet").
  sextantd_process live({"--kubeconfig", kubeconfig_through(cluster, proxy), "--auth=kubernetes",
                         "--auth-cache-seconds=60", "--access-cache-seconds=60"},
                        cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(60s));
  const std::string url = live.url();
  const callers warm = factory.fresh("warm");
  require_verdicts(url, warm);
  const std::string ready_before = http_get(url, "/readyz").text;
  // A caller whose verdicts are kept through the faults.
  const callers kept = factory.fresh("kept");
  REQUIRE(status_of(url, kept.denied) == 403);

  for (const std::string& path : {token_reviews, access_reviews}) {
    const bool token_fault = path == token_reviews;
    const std::string name = token_fault ? "tr-hang" : "sar-hang";
    INFO("fault " << name);
    // The reviews of the last round left connections to the proxy open: the hung ones take them.
    const callers fresh = factory.fresh(name);
    const std::size_t first_id = proxy.requests().size();
    proxy.hang(path, 100000);

    // Five callers at once, each one review (the made-up tokens only a TokenReview).
    std::vector<std::string> tokens{fresh.allowed, fresh.denied, fresh.unknown, "not-a-token-" + name + "-1",
                                    "not-a-token-" + name + "-2"};
    std::vector<std::future<std::pair<answer, steady::duration>>> calls;
    for (const std::string& token : tokens) {
      calls.push_back(std::async(std::launch::async, [&url, token] {
        const steady::time_point started = steady::now();
        answer got = http_as(token, "GET", url, guarded);
        return std::make_pair(got, steady::now() - started);
      }));
    }
    // Meanwhile the daemon serves: /readyz and a caller with kept verdicts are answered at once.
    std::this_thread::sleep_for(2s);
    const steady::time_point probe = steady::now();
    check_ready_unchanged(url, ready_before);
    CHECK(status_of(url, kept.denied) == 403);
    CHECK(steady::now() - probe < 1s);

    std::size_t expected_hung = 0;
    for (std::size_t i = 0; i < calls.size(); ++i) {
      auto [got, took] = calls[i].get();
      const bool reviewed_here = token_fault || i < 2;  // else the token's 401 needs no permission check
      INFO("caller " << i << " answered " << describe(got) << " after "
                     << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
      if (reviewed_here) {
        ++expected_hung;
        CHECK(unavailable(got));
        // The review timeout (10 s), once: not again on a second connection.
        CHECK(took >= 9s);
        CHECK(took <= 13s);
      } else {
        CHECK(got.status == 401);
      }
    }
    const std::vector<proxied_request> hung = requests_from(proxy, first_id, path);
    CHECK(hung.size() == expected_hung);
    for (const proxied_request& r : hung) {
      CHECK(r.fault == "hang");
      CHECK(r.end_ms >= 0);  // the daemon gave up and closed it
    }
    // Now it counts as failing: callers are answered 503 at once, and no review more is sent.
    const steady::time_point refused = steady::now();
    CHECK(unavailable(http_as(fresh.allowed, "GET", url, guarded)));
    CHECK(steady::now() - refused < 1s);

    proxy.clear();
    check_verdicts_at_once(url, fresh, 2500ms);
    check_verdicts_at_once(url, warm, 1s);
    check_ready_unchanged(url, ready_before);
  }
  WARN("reviews that hang took "
       << std::chrono::duration_cast<std::chrono::seconds>(steady::now() - test_started).count() << " s");
}

TEST_CASE("the API server killed and restarted while callers call: 503 meanwhile, its verdicts once it is back",
          "[integration][auth][faults]") {
  const steady::time_point test_started = steady::now();
  test_cluster cluster;
  admin_client admin = cluster.admin();
  caller_factory factory(admin);
  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN"), "--auth=kubernetes"},
                        cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(60s));
  const std::string url = live.url();
  const callers warm = factory.fresh("warm");
  require_verdicts(url, warm);
  const std::string ready_before = http_get(url, "/readyz").text;
  // Made before the kill, used first during it.
  const callers fresh = factory.fresh("fresh");

  std::atomic<bool> restarted{false};
  auto restart = std::async(std::launch::async, [&] {
    cluster.restart_apiserver(true);
    restarted = true;
  });
  // The outage has begun once the API server does not answer the test either.
  admin_client watcher = cluster.admin();
  bool down = false;
  while (!down && !restarted) {
    down = watcher.get("/healthz").status == 0;
    if (!down) {
      std::this_thread::sleep_for(20ms);
    }
  }
  REQUIRE(down);
  // The fresh callers' first requests, in the outage (the first review refused holds every other
  // back for a second); then everyone until the server is back.
  for (const std::string& token : {fresh.allowed, fresh.denied}) {
    answer first = http_as(token, "GET", url, guarded);
    INFO("a first request in the outage answered " << describe(first));
    CHECK(unavailable(first));
  }
  int in_outage = 0;
  int right_meanwhile = 0;
  int not_yet = 0;
  const std::vector<std::pair<std::string, int>> everyone{{fresh.allowed, 200}, {fresh.denied, 403},
                                                          {fresh.unknown, 401}, {warm.allowed, 200},
                                                          {warm.denied, 403},   {warm.unknown, 401}};
  for (int round = 0; round == 0 || !restarted; ++round) {
    for (const auto& [token, expected] : everyone) {
      answer got = http_as(token, "GET", url, guarded);
      INFO("round " << round << ": expected " << expected << " or 503, got " << describe(got));
      if (got.status == 503) {
        CHECK(unavailable(got));
        ++in_outage;
      } else if (got.status != expected && (got.status == 401 || got.status == 403) && expected != 401) {
        // A server just started answers before it has read RBAC and its service accounts: its
        // "no" can be a "not yet". The daemon passes it on but does not keep it (checked below:
        // the right verdicts at once after the restart, well inside the 10 s cache).
        ++not_yet;
      } else {
        CHECK(got.status == expected);  // a kept verdict, or the server's once it is back
        ++right_meanwhile;
      }
    }
    answer ready = http_get(url, "/readyz");
    CHECK(ready.status == 200);  // what was read is served
    std::this_thread::sleep_for(200ms);
  }
  restart.get();
  CHECK(in_outage >= 2);
  INFO(in_outage << " answers 503, " << right_meanwhile << " verdicts and " << not_yet
                 << " refusals of a server still starting while it restarted");

  check_verdicts_after_restart(url, fresh, 2500ms);
  check_verdicts_after_restart(url, warm, 2500ms);
  const callers after = factory.fresh("after");
  check_verdicts_at_once(url, after, 1s);
  // Its watches resumed: /readyz says what it said before the kill.
  json ready = wait_for([&] { return json(http_get(url, "/readyz").text); },
                        [&](const json& text) { return text == ready_before; }, 30s);
  CHECK(ready == ready_before);
  WARN(
      "the restart test took " << std::chrono::duration_cast<std::chrono::seconds>(steady::now() - test_started).count()
                               << " s");
}
