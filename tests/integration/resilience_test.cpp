// What a long-running daemon meets: the API server restarting, etcd compacting away the
// version a watch resumes from, the network dropping connections while objects change.
#include <future>
#include <random>

#include <catch2/catch.hpp>

#include "churn.hpp"
#include "connect_proxy.hpp"
#include "kube/reflector.hpp"
#include "live_harness.hpp"
#include "sections/core/core_section.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const kind_key pod_type{"", "Pod"};

double resource_metric(const live_harness& live, const char* name, const std::string& resource) {
  return live.metric(name, {{"resource", resource}});
}

}  // namespace

TEST_CASE("after the API server restarts, watches resume: nothing lost, nothing duplicated",
          "[integration][resilience]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 50);

  live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));
  // The last change before the restart must reach the cache, not be lost with the connection.
  create_pods(admin, "ml", "last-", 3);

  // The restart runs beside the loop, so the watches meet the outage as it happens.
  auto restarted = std::async(std::launch::async, [&cluster] { cluster.restart_apiserver(); });
  REQUIRE(live.run_until([&] { return restarted.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                         std::chrono::minutes(3)));
  restarted.get();

  admin_client after = cluster.admin();
  create_pods(after, "ml", "after-", 20);
  for (int i = 0; i < 10; ++i) {
    REQUIRE(after.remove("/api/v1/namespaces/ml/pods/before-" + std::to_string(i)).ok());
  }
  REQUIRE(converges(live, after));
  CHECK(live.store.count(pod_type) == 50 + 3 + 20 - 10);
  CHECK(live.ready());
  CHECK(resource_metric(live, kube::reflector_metrics::watch_restarts, "pods") >= 1);
  WARN("pods: " << resource_metric(live, kube::reflector_metrics::list_restarts, "pods")
                << " relists after the restart, "
                << resource_metric(live, kube::reflector_metrics::watch_restarts, "pods") << " watch restarts");
}

TEST_CASE("etcd compacted past a watch's version: the watch gets 410 and the cache relists to the server's state",
          "[integration][resilience]") {
  // Without the apiserver's watch cache every watch is served by etcd, so a resumed watch meets
  // the compaction itself.
  test_cluster cluster({{}, false});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "old-", 30);

  connect_proxy network;
  live_harness live(network.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));
  const std::string watched_version = live.live->find_watch(pod_type)->resource_version();

  // A partition: the daemon hears nothing while the cluster changes and etcd compacts.
  network.pause();
  create_pods(admin, "ml", "new-", 20);
  for (int i = 0; i < 10; ++i) {
    REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/old-" + std::to_string(i)).ok());
  }
  long long revision = cluster.compact();
  CHECK(revision > std::stoll(watched_version));
  network.drop_all();
  network.resume();

  REQUIRE(live.run_until([&] { return resource_metric(live, kube::reflector_metrics::relists_gone, "pods") >= 1; }));
  REQUIRE(converges(live, admin));
  CHECK(live.store.count(pod_type) == 30 + 20 - 10);
  CHECK(live.store.get(pod_type, "ml", "old-3") == nullptr);  // deleted while unheard: gone after the relist
  CHECK(live.store.get(pod_type, "ml", "new-19") != nullptr);
  CHECK(live.ready());
}

TEST_CASE("after churn and dropped connections the cache equals the server, names and versions",
          "[integration][resilience]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  create_churn_namespaces(admin);
  connect_proxy network;
  live_harness live(network.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));

  std::mt19937 random(2026);
  churn_state churned;
  for (int step = 0; step < 600; ++step) {
    churn_step(admin, random, churned, step);
    if (step % 25 == 0) {
      live.run_for(std::chrono::milliseconds(20));
    }
    if (step == 200 || step == 400) {
      network.drop_all();  // every watch breaks mid-churn and resumes
    }
    if (step == 300) {
      network.pause();  // changes pile up unheard for a while
    }
    if (step == 350) {
      network.resume();
    }
  }
  REQUIRE(converges(live, admin, std::chrono::seconds(30)));
  CHECK(live.ready());
  CHECK(resource_metric(live, kube::reflector_metrics::watch_restarts, "pods") >= 2);
}
