// Issue 35's fault matrix, rows 1 and 2: the API server killed and restarted again and again
// while objects change at tens a second (once with etcd restarted too), and etcd compacting
// away the version of every watch at once during churn. Afterwards the cache holds exactly what
// the server lists: nothing lost, nothing duplicated, every resourceVersion current.
#include <future>

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

constexpr int churn_per_second = 40;

double watch_metric(const live_harness& live, const char* name, const std::string& resource) {
  return live.metric(name, {{"resource", resource}});
}

const kind_key pod_type{"", "Pod"};

// Runs the daemon's loop while `fault` runs beside it, so that the watches meet the fault as it
// happens; fails the test when the fault does. Returns whether the cached Pods were marked out
// of date at some point meanwhile (what the views and /readyz then say).
bool run_beside(live_harness& live, const std::function<void()>& fault) {
  auto done = std::async(std::launch::async, fault);
  bool marked = false;
  REQUIRE(live.run_until(
      [&] {
        marked = marked || live.store.interrupted(pod_type).has_value();
        return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
      },
      std::chrono::minutes(3)));
  done.get();
  return marked;
}

}  // namespace

TEST_CASE("the API server killed and restarted ten times during churn, once with etcd too: the cache equals the server",
          "[integration][resilience][faults]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  create_churn_namespaces(admin);
  live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));

  background_churn churn(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), 35, churn_per_second);
  int marked_out_of_date = 0;
  for (int round = 0; round < 10; ++round) {
    INFO("restart " << round + 1);
    marked_out_of_date += run_beside(live, [&cluster, round] {
      if (round == 4) {
        // etcd down for two seconds under a running API server, then the API server too.
        cluster.restart_etcd(std::chrono::seconds(2));
      }
      // Half the restarts are a kill: no graceful end of the watches.
      cluster.restart_apiserver(round % 2 == 1);
    });
    live.run_for(std::chrono::milliseconds(500));  // the churn heard between two outages
  }
  churn.stop();
  INFO(churn.attempted() << " writes attempted");
  CHECK(churn.attempted() > 10 * churn_per_second);

  admin_client after = cluster.admin();
  REQUIRE(converges(live, after, std::chrono::seconds(30)));
  CHECK(live.ready());
  // Each outage was said while it lasted (a restart so quick that no watch failed says nothing),
  // and nothing is said once the watches are open again.
  CHECK(marked_out_of_date >= 5);
  REQUIRE(live.run_until([&] { return !live.store.interrupted(pod_type).has_value(); }));
  CHECK(watch_metric(live, kube::reflector_metrics::watch_restarts, "pods") >= 10);
  CHECK(watch_metric(live, kube::reflector_metrics::watch_restarts, "jobs.batch") >= 10);
}

TEST_CASE("etcd compacted past every watch's version at once during churn: each relists once, to the server's state",
          "[integration][resilience][faults]") {
  // Without the API server's watch cache every watch is served by etcd, so resumed watches meet
  // the compaction themselves.
  test_cluster cluster({{}, false});
  admin_client admin = cluster.admin();
  create_churn_namespaces(admin);
  connect_proxy network;
  live_harness live(network.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  const double pod_lists = watch_metric(live, kube::reflector_metrics::list_restarts, "pods");
  const double job_lists = watch_metric(live, kube::reflector_metrics::list_restarts, "jobs.batch");

  background_churn churn(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), 36, churn_per_second);
  live.run_for(std::chrono::seconds(2));
  // A partition while the churn goes on and etcd compacts: every watch resumes from a
  // compacted version at once.
  network.pause();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  run_beside(live, [&cluster] { cluster.compact(); });
  network.drop_all();
  network.resume();
  REQUIRE(live.run_until([&] {
    return watch_metric(live, kube::reflector_metrics::relists_gone, "pods") >= 1 &&
           watch_metric(live, kube::reflector_metrics::relists_gone, "jobs.batch") >= 1;
  }));
  live.run_for(std::chrono::seconds(2));  // churn heard after the relists
  churn.stop();

  REQUIRE(converges(live, admin, std::chrono::seconds(30)));
  CHECK(live.ready());
  // One relist each for the 410, not a storm: at most one more for a watch that broke at the
  // partition before it met the compaction.
  CHECK(watch_metric(live, kube::reflector_metrics::list_restarts, "pods") - pod_lists <= 2);
  CHECK(watch_metric(live, kube::reflector_metrics::list_restarts, "jobs.batch") - job_lists <= 2);
}
