// The real API server throttling the daemon: API Priority and Fairness puts the daemon's user
// on a priority level of one seat that refuses rather than queues, and a "seat hog" (a thread
// listing large ConfigMaps as the same user, pausing briefly after each) keeps that seat busy, so
// that the daemon's lists and watches are answered 429 with the server's own Retry-After
// (1 s, raised by the server while refusals go on). tests/faultproxy sits between the two only
// to record every request's time, answer and Retry-After: it injects nothing.
#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "kube/reflector.hpp"
#include "live_harness.hpp"
#include "sections/core/core_section.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const std::string throttled_user = "sextant-reader";  // KUBECONFIG_READER's user
const std::string throttling_name = "sextant-throttled";
const std::string flowschema_path = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const std::string level_path = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
const std::string bulk_path = "/api/v1/namespaces/bulk/configmaps";

// The reader may read everything (the test cluster gives it no role at all).
void let_reader_read(admin_client& admin) {
  json role = {
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "ClusterRole"},
      {"metadata", {{"name", "sextant-read-all"}}},
      {"rules", json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"get", "list", "watch"}}}})}};
  REQUIRE(admin.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", role).ok());
  json binding = {
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "ClusterRoleBinding"},
      {"metadata", {{"name", "sextant-read-all"}}},
      {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "sextant-read-all"}}},
      {"subjects",
       json::array({{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "User"}, {"name", throttled_user}}})}};
  REQUIRE(admin.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", binding).ok());
}

// The smallest level there is: one share, nothing lent or borrowed, and a refusal rather than a
// queue. With the server's concurrency cut to 15 (cluster options below) one share is one seat.
json throttling_level() {
  return {{"apiVersion", "flowcontrol.apiserver.k8s.io/v1"},
          {"kind", "PriorityLevelConfiguration"},
          {"metadata", {{"name", throttling_name}}},
          {"spec",
           {{"type", "Limited"},
            {"limited",
             {{"nominalConcurrencyShares", 1},
              {"lendablePercent", 0},
              {"borrowingLimitPercent", 0},
              {"limitResponse", {{"type", "Reject"}}}}}}}};
}

// Every resource request of the reader (lists and watches; discovery, a non-resource request,
// stays on the default level), ahead of the suggested schemas (global-default is 9900).
json throttling_schema() {
  json rule = {{"subjects", json::array({{{"kind", "User"}, {"user", {{"name", throttled_user}}}}})},
               {"resourceRules", json::array({{{"verbs", {"*"}},
                                               {"apiGroups", {"*"}},
                                               {"resources", {"*"}},
                                               {"clusterScope", true},
                                               {"namespaces", {"*"}}}})}};
  return {{"apiVersion", "flowcontrol.apiserver.k8s.io/v1"},
          {"kind", "FlowSchema"},
          {"metadata", {{"name", throttling_name}}},
          {"spec",
           {{"priorityLevelConfiguration", {{"name", throttling_name}}},
            {"matchingPrecedence", 500},
            {"distinguisherMethod", {{"type", "ByUser"}}},
            {"rules", json::array({rule})}}}};
}

// Lists as the throttled user, one after another with a short pause so that the seat is busy
// most of the time but not all of it (back to back, the daemon would never get in).
class seat_hog {
 public:
  seat_hog(const test_cluster& cluster, const std::string& token)
      : thread_([this, server = cluster.server(), ca = cluster.env("CA_CRT"), token](std::stop_token stop) {
          admin_client client(server, ca, token);
          while (!stop.stop_requested()) {
            const auto began = std::chrono::steady_clock::now();
            answer listed = client.get(bulk_path);
            const auto took = std::chrono::steady_clock::now() - began;
            (listed.status == 200 ? served_ : listed.status == 429 ? refused_ : failed_)++;
            if (listed.status == 200) {
              busy_ms_ += std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
            }
            // A quarter of the list's own time, 30 ms at least: busy four fifths of the time on
            // a loaded machine too, never all of it.
            std::this_thread::sleep_for(
                std::max<std::chrono::steady_clock::duration>(took / 4, std::chrono::milliseconds(30)));
          }
        }) {}

  void stop() {
    thread_.request_stop();
    if (thread_.joinable()) {
      thread_.join();
    }
  }
  std::string describe() const {
    std::ostringstream out;
    out << "seat hog: " << served_ << " lists served (" << (served_ > 0 ? busy_ms_ / served_ : 0) << " ms each), "
        << refused_ << " refused, " << failed_ << " failed";
    return out.str();
  }
  int served() const { return served_; }

 private:
  std::atomic<int> served_{0}, refused_{0}, failed_{0};
  std::atomic<long long> busy_ms_{0};
  std::jthread thread_;  // last: started once the counters exist
};

bool collection_request(const proxied_request& r) {
  return r.query.find("limit=") != std::string::npos || r.query.find("watch=") != std::string::npos;
}

bool list_request(const proxied_request& r) {
  return !r.watch && collection_request(r);
}

std::string query_value(const std::string& query, const std::string& key) {
  std::size_t at = 0;
  while (at < query.size()) {
    std::size_t end = query.find('&', at);
    if (end == std::string::npos) {
      end = query.size();
    }
    const std::string pair = query.substr(at, end - at);
    if (pair.rfind(key + "=", 0) == 0) {
      return pair.substr(key.size() + 1);
    }
    at = end + 1;
  }
  return {};
}

// One reflector's requests: its collection and the selectors it watches with.
std::string reflector_key(const proxied_request& r) {
  return r.path + "?" + query_value(r.query, "labelSelector") + "&" + query_value(r.query, "fieldSelector");
}

// The name readiness gives the kind of a collection path: "pods", "jobs.batch".
std::string readiness_name(const std::string& path) {
  std::vector<std::string> parts;
  std::istringstream in(path);
  for (std::string part; std::getline(in, part, '/');) {
    if (!part.empty()) {
      parts.push_back(part);
    }
  }
  if (parts.size() < 3) {
    return path;
  }
  return parts.front() == "apis" ? parts.back() + "." + parts[1] : parts.back();
}

std::map<std::string, std::vector<proxied_request>> by_reflector(const std::vector<proxied_request>& all) {
  std::map<std::string, std::vector<proxied_request>> out;
  for (const proxied_request& r : all) {
    if (collection_request(r)) {
      out[reflector_key(r)].push_back(r);
    }
  }
  return out;
}

std::string described(const std::vector<proxied_request>& requests) {
  std::ostringstream out;
  for (const proxied_request& r : requests) {
    out << r.ms << "-" << r.end_ms << " ms " << (r.watch ? "watch " : "list ") << r.path << "?" << r.query << " -> "
        << r.status;
    if (r.retry_after > 0) {
      out << " Retry-After " << r.retry_after;
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace

TEST_CASE(
    "the API server's priority and fairness throttles the daemon: it waits out every Retry-After, backs off, "
    "never relists, and converges",
    "[integration][faults][apf]") {
  // Priority and fairness divides the server's concurrency (these two flags' sum) among the
  // levels by their shares: 15 makes the test's level one seat.
  test_cluster cluster({.extra_args = {"--apiserver-arg=--max-requests-inflight=10",
                                       "--apiserver-arg=--max-mutating-requests-inflight=5"}});
  admin_client admin = cluster.admin();  // system:masters: the exempt level, never throttled
  let_reader_read(admin);
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("bulk")).ok());
  create_pods(admin, "ml", "before-", 10);
  // What the hog lists: 300 ConfigMaps of 40 KB, 12 MB a list, so that each list holds the
  // seat for a while.
  const std::string filler(40 * 1024, 'x');
  std::vector<std::pair<std::string, json>> bulk;
  for (int i = 0; i < 300; ++i) {
    bulk.emplace_back(bulk_path, json{{"apiVersion", "v1"},
                                      {"kind", "ConfigMap"},
                                      {"metadata", {{"name", "bulk-" + std::to_string(i)}, {"namespace", "bulk"}}},
                                      {"data", {{"filler", filler}}}});
  }
  const std::vector<std::string> errors =
      create_all(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), bulk, 4);
  REQUIRE(errors.empty());

  REQUIRE(admin.post(level_path, throttling_level()).ok());
  REQUIRE(admin.post(flowschema_path, throttling_schema()).ok());
  const std::string reader_token = read_text(cluster.env("READER_TOKEN_FILE"));
  seat_hog hog(cluster, reader_token);
  // The server applies the schema within moments: the reader's small requests start being refused.
  admin_client probe(cluster.server(), cluster.env("CA_CRT"), reader_token);
  answer refused;
  for (int i = 0; i < 200 && refused.status != 429; ++i) {
    refused = probe.get("/api/v1/namespaces/ml/pods?limit=1");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO(hog.describe());
  REQUIRE(refused.status == 429);

  fault_proxy proxy(cluster);  // a recorder only: no fault is armed in this test
  kube::live_options options = fast_options();
  // Backoffs long enough to see them grow past the server's first Retry-After (1 s), and
  // watches the server ends every few seconds, so that they are opened again while throttled.
  options.reflector.backoff.initial = std::chrono::milliseconds(250);
  options.reflector.backoff.cap = std::chrono::milliseconds(2000);
  options.reflector.watch_timeout_min = std::chrono::seconds(2);
  options.reflector.watch_timeout_max = std::chrono::seconds(4);
  const auto started = std::chrono::steady_clock::now();
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_READER"))), {core::make_section()}, options);

  // While throttled: whenever every list of a kind so far was refused, readiness names it.
  int named = 0;
  std::vector<std::string> unnamed;
  bool during_created = false;
  const bool synced = live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(50));
        const std::vector<std::string> waiting = live.live->readiness();
        for (const auto& [key, requests] : by_reflector(proxy.requests())) {
          const bool all_refused =
              std::all_of(requests.begin(), requests.end(), [](const proxied_request& r) { return r.status == 429; });
          if (all_refused) {
            const std::string name = readiness_name(requests.front().path);
            if (std::find(waiting.begin(), waiting.end(), name) != waiting.end() && !live.ready()) {
              ++named;
            } else {
              unnamed.push_back(name);
            }
          }
        }
        // The cluster changes once the server has refused the daemon (the hog keeps the seat busy
        // most, not all, of the time: a kind's first list may get through at once).
        const std::vector<proxied_request> so_far = proxy.requests();
        const bool refused_once =
            std::any_of(so_far.begin(), so_far.end(), [](const proxied_request& r) { return r.status == 429; });
        if (!during_created && (named > 0 || refused_once)) {
          // The cluster changes while the daemon is throttled (the admin's writes are exempt).
          create_pods(admin, "ml", "during-", 5);
          REQUIRE(admin.post("/apis/batch/v1/namespaces/ml/jobs", job_object("ml", "during")).ok());
          during_created = true;
        }
        // Ready is not enough: the first lists may all get through while the hog is between
        // lists, so it runs on until the server has refused the daemon once (watches the server
        // ends every few seconds are opened again meanwhile).
        return live.ready() && during_created;
      },
      std::chrono::seconds(90));
  INFO(hog.describe());
  INFO(described(proxy.requests()));
  REQUIRE(synced);
  // Whenever a kind had only refusals so far, readiness named it (a kind whose first list got
  // through is not counted; faults_test.cpp checks the naming with refusals made certain).
  CHECK(unnamed.empty());
  REQUIRE(during_created);
  // Still throttled, the watches the server ends are opened again (and refused in turn): at
  // least 10 s, and until the server has refused a watch and six retried requests in all, so
  // that the checks below have waits to judge (within 60 s).
  const auto enough_refusals = [&] {
    std::size_t watches = 0, retried = 0;
    for (const auto& [key, requests] : by_reflector(proxy.requests())) {
      for (std::size_t i = 0; i + 1 < requests.size(); ++i) {
        retried += requests[i].status == 429 ? 1 : 0;
        watches += requests[i].status == 429 && !list_request(requests[i]) ? 1 : 0;
      }
    }
    return watches >= 1 && retried >= 6;
  };
  live.run_for(std::chrono::seconds(10));
  live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(200));
        return enough_refusals();
      },
      std::chrono::seconds(50));
  const auto throttled_for = std::chrono::steady_clock::now() - started;

  // Throttling ends: the schema goes and the hog stops.
  REQUIRE(admin.remove(flowschema_path + "/" + throttling_name).ok());
  hog.stop();
  create_pods(admin, "ml", "after-", 3);
  REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/before-0").ok());
  REQUIRE(converges(live, admin, std::chrono::seconds(30)));
  for (const auto& [path, type] : std::vector<std::pair<std::string, kind_key>>{{"/api/v1/nodes", {"", "Node"}}}) {
    CHECK(live.cached(type) == listed(admin, path));
  }
  CHECK(live.store.count({"", "Pod"}) == 10 + 5 + 3 - 1);
  CHECK(live.ready());

  const std::vector<proxied_request> all = proxy.requests();
  INFO(hog.describe());
  INFO(described(all));
  const auto reflectors = by_reflector(all);
  REQUIRE_FALSE(reflectors.empty());
  std::size_t list_refusals = 0, watch_refusals = 0;
  std::vector<double> stretch;  // each wait over the least the daemon had to wait
  for (const auto& [key, requests] : reflectors) {
    int refusals = 0;
    bool listed_once = false;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const proxied_request& r = requests[i];
      INFO(key << ": request " << i + 1 << " at " << r.ms << " ms");
      // Lists only until the first one answered; after it, watches from a version.
      if (list_request(r)) {
        CHECK_FALSE(listed_once);
        listed_once = listed_once || r.status == 200;
        list_refusals += r.status == 429 ? 1 : 0;
      } else {
        const std::string version = query_value(r.query, "resourceVersion");
        CHECK_FALSE(version.empty());
        CHECK(version != "0");
        watch_refusals += r.status == 429 ? 1 : 0;
      }
      if (r.status != 429 || i + 1 == requests.size()) {
        continue;
      }
      ++refusals;
      // The server's own Retry-After came with it; the next try waited it out from the answer,
      // and the backoff's delay too (250 ms doubling to 2 s: the refusals of one reflector so
      // far say the least step it reached), with jitter of at most half the Retry-After or the
      // whole step.
      REQUIRE(r.retry_after >= 1);
      REQUIRE(r.end_ms >= 0);
      const long long waited = requests[i + 1].ms - r.end_ms;
      const long long step = std::min<long long>(2000, 250LL << std::min(refusals - 1, 4));
      const long long least = std::max<long long>(r.retry_after * 1000LL, step);
      INFO("waited " << waited << " ms after a 429 saying " << r.retry_after << " s (backoff step at least " << step
                     << " ms)");
      CHECK(waited >= least);
      CHECK(waited <= std::max<long long>(r.retry_after * 1500LL, 2 * 2000) + 1500);
      stretch.push_back(static_cast<double>(waited) / static_cast<double>(least));
    }
    CHECK(listed_once);
  }
  // The server refused, with its own answers (no fault was armed).
  // Lists are refused only when a first list meets a busy seat, which is chance here (a list
  // refused for certain is faults_test.cpp's); watches are opened again all along.
  CHECK(list_refusals + watch_refusals >= 1);
  CHECK(watch_refusals >= 1);
  CHECK(std::none_of(all.begin(), all.end(), [](const proxied_request& r) { return !r.fault.empty(); }));
  // Jitter: the waits are not all the least one.
  REQUIRE(stretch.size() >= 5);
  CHECK(*std::max_element(stretch.begin(), stretch.end()) - *std::min_element(stretch.begin(), stretch.end()) > 0.05);
  // No hot loop: in any second, at most three requests per reflector (a refused try, a list, its
  // watch) and a few of discovery's.
  std::size_t busiest = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::size_t within = 0;
    for (std::size_t j = i; j < all.size() && all[j].ms < all[i].ms + 1000; ++j) {
      ++within;
    }
    busiest = std::max(busiest, within);
  }
  INFO("busiest second: " << busiest << " requests, " << reflectors.size() << " reflectors");
  CHECK(busiest <= 3 * reflectors.size() + 10);
  CHECK(live.metric(kube::reflector_metrics::relists_gone, {{"resource", "pods"}}) == 0);
  WARN("throttled for " << std::chrono::duration_cast<std::chrono::seconds>(throttled_for).count() << " s; "
                        << list_refusals << " lists and " << watch_refusals << " watches refused by the server; "
                        << hog.describe() << "; busiest second " << busiest << " requests");
}

TEST_CASE("discovery refused with Retry-After is not asked again before it", "[integration][faults][apf]") {
  // Priority and fairness throttles discovery too where a schema covers it; the proxy plays that
  // refusal here, with a Retry-After longer than discovery's own first backoff (1 s).
  test_cluster cluster;
  admin_client admin = cluster.admin();
  fault_proxy proxy(cluster);
  proxy.refuse("/api", "any", 2, 429, 3);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  bool named = false;
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(50));
        const std::vector<std::string> waiting = live.live->readiness();
        named = named || std::find(waiting.begin(), waiting.end(), "discovery") != waiting.end();
        return live.ready();
      },
      std::chrono::seconds(40)));
  CHECK(named);
  REQUIRE(converges(live, admin));
  const std::vector<proxied_request> asked = requests_to(proxy.requests(), "/api");
  INFO(described(asked));
  REQUIRE(asked.size() >= 3);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(asked[i].status == 429);
    const long long waited = asked[i + 1].ms - asked[i].end_ms;
    INFO("discovery asked again " << waited << " ms after a 429 saying 3 s");
    CHECK(waited >= 3000);
    CHECK(waited <= 3000 + 4000);  // at most the backoff's second step with its jitter, and slack
  }
  CHECK(asked[2].status == 200);
}
