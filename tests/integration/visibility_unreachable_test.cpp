// An aggregated API that is registered but cannot answer: Kueue's visibility API
// (visibility.kueue.x-k8s.io, where the waiting lists' positions come from) as an APIService whose
// Service is missing, then present with no endpoints. The API server answers 503 for the group
// and marks it stale in discovery. The daemon must go on discovering and watching every other
// group, serve the waiting lists with their Workloads and say the positions are unknown and why
// (never "none waiting", never a made-up position), keep /readyz truthful, and not hammer the
// dead API: the fault proxy's record counts every request it sends.
#include <algorithm>
#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "team-a";
const std::string v1beta2 = "kueue.x-k8s.io/v1beta2";
const std::string kueue_api = "/apis/kueue.x-k8s.io/v1beta2";
const std::string visibility_group = "visibility.kueue.x-k8s.io";
const std::string api_services = "/apis/apiregistration.k8s.io/v1/apiservices";

json api_service(const std::string& version) {
  return {{"apiVersion", "apiregistration.k8s.io/v1"},
          {"kind", "APIService"},
          {"metadata", {{"name", version + "." + visibility_group}}},
          {"spec",
           {{"group", visibility_group},
            {"version", version},
            {"service", {{"namespace", "kueue-system"}, {"name", "kueue-visibility-server"}, {"port", 443}}},
            {"insecureSkipTLSVerify", true},
            {"groupPriorityMinimum", 100},
            {"versionPriority", version == "v1beta2" ? 200 : 100}}}};
}

// Waiting for quota, as Kueue's scheduler writes it.
json pending_status() {
  return {{"conditions", json::array({condition("QuotaReserved", "False", "Pending",
                                                "couldn't assign flavors to pod set main: insufficient quota",
                                                std::chrono::minutes(5))})}};
}

std::string available_reason(admin_client& admin, const std::string& version) {
  return condition_of(get_object(admin, api_services + "/" + version + "." + visibility_group), "Available")
      .value("reason", "");
}

// What a front-end sees of a queue's waiting list: every Workload, none with a position, and why.
void check_waiting_unknown(const json& waiting, std::size_t total) {
  INFO(waiting.dump());
  CHECK(waiting.value("total", std::size_t{0}) == total);  // never "no Workloads waiting"
  REQUIRE(waiting["items"].size() == total);
  for (const json& item : waiting["items"]) {
    CHECK(item["position"].is_null());  // never a made-up position
  }
  REQUIRE(waiting["positionsUnknownReason"].is_string());
  CHECK_THAT(waiting["positionsUnknownReason"].get<std::string>(),
             Catch::Contains("Kueue's visibility API cannot be read") && Catch::Contains(visibility_group) &&
                 Catch::Contains("does not answer"));
}

}  // namespace

TEST_CASE("Kueue's visibility API registered but unreachable: discovery, lists and /readyz go on, positions unknown",
          "[integration][visibility]") {
  test_cluster cluster({.crds = {upstream_crds("kueue").string()}});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("kueue-system")).ok());
  create(admin, kueue_api + "/resourceflavors",
         {{"apiVersion", v1beta2}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default"}}}});
  create(
      admin, kueue_api + "/clusterqueues",
      {{"apiVersion", v1beta2},
       {"kind", "ClusterQueue"},
       {"metadata", {{"name", "cq"}}},
       {"spec",
        {{"namespaceSelector", json::object()},
         {"resourceGroups",
          json::array({{{"coveredResources", json::array({"cpu"})},
                        {"flavors", json::array({{{"name", "default"},
                                                  {"resources",
                                                   json::array({{{"name", "cpu"}, {"nominalQuota", "1"}}})}}})}}})}}}});
  create(admin, kueue_api + "/namespaces/" + ns + "/localqueues",
         {{"apiVersion", v1beta2},
          {"kind", "LocalQueue"},
          {"metadata", {{"name", "lq"}, {"namespace", ns}}},
          {"spec", {{"clusterQueue", "cq"}}}});
  const std::string workloads = kueue_api + "/namespaces/" + ns + "/workloads";
  for (int i = 0; i < 3; ++i) {
    write_status(admin, workloads,
                 create(admin, workloads, kueue_workload(v1beta2, ns, "wait-" + std::to_string(i), "lq")),
                 pending_status());
  }

  // Registered both versions Kueue serves; no Service behind them.
  for (const char* version : {"v1beta1", "v1beta2"}) {
    REQUIRE(admin.post(api_services, api_service(version)).ok());
  }
  for (const char* version : {"v1beta1", "v1beta2"}) {
    json registered =
        wait_for([&] { return get_object(admin, api_services + "/" + version + "." + visibility_group); },
                 [](const json& s) { return !condition_of(s, "Available").empty(); }, std::chrono::seconds(30));
    CHECK(condition_of(registered, "Available").value("status", "") == "False");
  }
  CHECK(available_reason(admin, "v1beta2") == "ServiceNotFound");
  // What the API server itself says of the group: 503 for its reads, stale in discovery.
  const std::string pending_path = "/apis/" + visibility_group + "/v1beta2/clusterqueues/cq/pendingworkloads";
  CHECK(admin.get(pending_path).status == 503);

  fault_proxy proxy(cluster);
  // A daemon in this process first, to wait until the API server's discovery marks the group as
  // stale (its aggregator has tried the Service): before that it leaves the group out, and the
  // daemon rightly says it is not served.
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))),
                    {core::make_section(), kueue::make_section()});
  // Workloads are watched while their category is on (or a view asks for them): on, as a daemon
  // whose Workload problems are enabled.
  live.live->set_category_check([](const std::string&) { return true; });
  live.live->categories_changed();
  REQUIRE(live.run_until([&] { return live.ready() && live.served.unanswered(visibility_group); },
                         std::chrono::seconds(30)));
  sextantd_process daemon({"--kubeconfig", proxy.kubeconfig_with(cluster.admin_token()).string()},
                          cluster.dir() / "sextantd.log");
  REQUIRE(daemon.wait_ready(std::chrono::seconds(60)));

  // The queues' waiting lists: every Workload, positions unknown, and why.
  auto waiting_of = [&](const std::string& path) {
    return wait_for([&] { return daemon.get(path).value("waiting", json::object()); },
                    [](const json& w) {
                      // The first answers may come before the daemon has looked at the API: "not read yet".
                      return w.value("total", 0) == 3 && w["positionsUnknownReason"].is_string() &&
                             w["positionsUnknownReason"].get<std::string>().find("does not answer") !=
                                 std::string::npos;
                    },
                    std::chrono::seconds(30));
  };
  check_waiting_unknown(waiting_of("/api/v1/kueue/clusterqueues/cq"), 3);
  check_waiting_unknown(waiting_of(std::string("/api/v1/kueue/localqueues/") + ns + "/lq"), 3);
  const auto look_began = std::chrono::steady_clock::now();
  const long long looked_since = [&] {
    long long latest = 0;
    for (const proxied_request& r : proxy.requests()) {
      latest = std::max(latest, r.ms);
    }
    return latest;
  }();

  // Nothing else stalls: what changes elsewhere meanwhile is shown, and /readyz says ready with no
  // kind out of date.
  create_pods(admin, ns, "meanwhile-", 2);
  write_status(admin, workloads, create(admin, workloads, kueue_workload(v1beta2, ns, "wait-3", "lq")),
               pending_status());
  json pods = wait_for([&] { return daemon.get(std::string("/api/v1/core/pods?namespace=") + ns); },
                       [](const json& list) { return list.value("items", json::array()).size() == 2; },
                       std::chrono::seconds(30));
  CHECK(pods["items"].size() == 2);
  check_waiting_unknown(
      wait_for([&] { return daemon.get("/api/v1/kueue/clusterqueues/cq").value("waiting", json::object()); },
               [](const json& w) { return w.value("total", 0) == 4; }, std::chrono::seconds(30)),
      4);
  answer ready = http_get(daemon.url(), "/readyz");
  CHECK(ready.status == 200);
  CHECK(ready.text == "ok\n");

  // Now a Service with no endpoints: still 503, still unknown.
  create(admin, "/api/v1/namespaces/kueue-system/services",
         {{"apiVersion", "v1"},
          {"kind", "Service"},
          {"metadata", {{"name", "kueue-visibility-server"}, {"namespace", "kueue-system"}}},
          {"spec",
           {{"selector", {{"app", "no-such-pod"}}},
            {"ports", json::array({{{"port", 443}, {"targetPort", 9443}, {"protocol", "TCP"}}})}}}});
  wait_for([&] { return json(available_reason(admin, "v1beta2")); },
           [](const json& reason) { return reason != "ServiceNotFound"; }, std::chrono::seconds(30));
  INFO("APIService reason with a Service and no endpoints: " << available_reason(admin, "v1beta2"));
  CHECK(admin.get(pending_path).status == 503);
  // Looked at for 20 s more, past the 15 s between reads of one queue's positions.
  for (int i = 0; i < 10; ++i) {
    check_waiting_unknown(daemon.get("/api/v1/kueue/clusterqueues/cq").value("waiting", json::object()), 4);
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }

  // No hot loop: over the time the lists were looked at, the dead group was read at most once
  // per queue per 15 s, and discovery was not repeated in a loop either.
  const long long window_s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - look_began).count();
  std::size_t visibility_reads = 0;
  std::size_t discoveries = 0;
  for (const proxied_request& r : proxy.requests()) {
    if (r.ms < looked_since) {
      continue;
    }
    if (r.path.starts_with("/apis/" + visibility_group)) {
      ++visibility_reads;
    }
    if (r.path == "/apis" || r.path == "/api") {
      ++discoveries;
    }
  }
  INFO("over " << window_s << " s: " << visibility_reads << " reads of " << visibility_group << ", " << discoveries
               << " discovery requests");
  CHECK(window_s >= 20);
  CHECK(visibility_reads <= static_cast<std::size_t>(2 * (window_s / 15 + 1)));
  CHECK(discoveries <= 2 * (static_cast<std::size_t>(window_s) / 30 + 2));

  // The cache equals what the server lists, every object by name and resourceVersion, for every
  // kind involved, read through the same dead group.
  CHECK(live.served.serves({"kueue.x-k8s.io", "Workload"}));
  const std::vector<std::pair<kind_key, std::string>> kinds = {
      {{"kueue.x-k8s.io", "Workload"}, kueue_api + "/workloads"},
      {{"kueue.x-k8s.io", "ClusterQueue"}, kueue_api + "/clusterqueues"},
      {{"kueue.x-k8s.io", "LocalQueue"}, kueue_api + "/localqueues"},
      {{"", "Pod"}, "/api/v1/pods"},
  };
  for (const auto& kind : kinds) {
    const kind_key& type = kind.first;
    const std::string& path = kind.second;
    INFO(type.to_string());
    std::map<std::string, std::string> server;
    CHECK(live.run_until(
        [&] {
          server = listed(admin, path);
          return live.cached(type) == server;
        },
        std::chrono::seconds(15)));
    CHECK(live.cached(type) == server);
    CHECK_FALSE(live.store.interrupted(type).has_value());
  }
  CHECK(live.cached({"kueue.x-k8s.io", "Workload"}).size() == 4);
  CHECK(live.served.unanswered(visibility_group));
  CHECK(live.ready());
}
