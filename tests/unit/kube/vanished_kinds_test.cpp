#include "kube/vanished_kinds.hpp"

#include <catch2/catch.hpp>

using namespace sextant;
using namespace sextant::kube;

namespace {

const kind_key workload{"kueue.x-k8s.io", "Workload"};
const kind_key cluster_queue{"kueue.x-k8s.io", "ClusterQueue"};
const kind_key pod{"", "Pod"};

served_kind served_as(const kind_key& type, std::string plural, std::vector<std::string> versions) {
  return served_kind{type, std::move(plural), true, std::move(versions)};
}

const std::vector<served_kind> with_kueue{served_as(pod, "pods", {"v1"}),
                                          served_as(workload, "workloads", {"v1beta2", "v1beta1"}),
                                          served_as(cluster_queue, "clusterqueues", {"v1beta2"})};

served_kinds pods_only() {
  served_kinds served;
  served.add(served_as(pod, "pods", {"v1"}));
  return served;
}

}  // namespace

TEST_CASE("a kind one discovery stops listing is kept as it was served, to be asked about again", "[kube][discovery]") {
  const vanished_kinds first = confirm_vanished(with_kueue, pods_only(), {});
  REQUIRE(first.kept.size() == 2);
  CHECK(first.kept[0].type == workload);
  CHECK(first.kept[0].plural == "workloads");
  CHECK(first.kept[0].versions == std::vector<std::string>{"v1beta2", "v1beta1"});  // read as before
  CHECK(first.kept[1].type == cluster_queue);
  CHECK(first.dropped.empty());
  CHECK(first.pending == std::set<kind_key>{workload, cluster_queue});
}

TEST_CASE("a second discovery without the kind drops it; one that lists it again ends the doubt", "[kube][discovery]") {
  const std::set<kind_key> pending{workload, cluster_queue};
  SECTION("still missing: gone") {
    const vanished_kinds second = confirm_vanished(with_kueue, pods_only(), pending);
    CHECK(second.kept.empty());
    CHECK(second.dropped == std::vector<kind_key>{workload, cluster_queue});
    CHECK(second.pending.empty());
  }
  SECTION("back: nothing kept, nothing dropped") {
    served_kinds back = pods_only();
    back.add(served_as(workload, "workloads", {"v1beta2"}));
    back.add(served_as(cluster_queue, "clusterqueues", {"v1beta2"}));
    const vanished_kinds second = confirm_vanished(with_kueue, back, pending);
    CHECK(second.kept.empty());
    CHECK(second.dropped.empty());
    CHECK(second.pending.empty());
  }
  SECTION("one back, one still missing") {
    served_kinds half = pods_only();
    half.add(served_as(workload, "workloads", {"v1beta2"}));
    const vanished_kinds second = confirm_vanished(with_kueue, half, pending);
    CHECK(second.dropped == std::vector<kind_key>{cluster_queue});
    CHECK(second.pending.empty());
  }
}

TEST_CASE("a kind first missing while another is confirmed gone gets its own second look", "[kube][discovery]") {
  const vanished_kinds second = confirm_vanished(with_kueue, pods_only(), {workload});
  CHECK(second.dropped == std::vector<kind_key>{workload});
  REQUIRE(second.kept.size() == 1);
  CHECK(second.kept[0].type == cluster_queue);
  CHECK(second.pending == std::set<kind_key>{cluster_queue});
}

TEST_CASE("the first discovery, or one that lists everything, keeps nothing", "[kube][discovery]") {
  CHECK(confirm_vanished({}, pods_only(), {}).pending.empty());
  served_kinds all;
  for (const served_kind& kind : with_kueue) {
    all.add(kind);
  }
  const vanished_kinds same = confirm_vanished(with_kueue, all, {});
  CHECK(same.kept.empty());
  CHECK(same.dropped.empty());
  // A kind served at another version only is still served: re-planned, not doubted.
  served_kinds other_version = pods_only();
  other_version.add(served_as(workload, "workloads", {"v1"}));
  other_version.add(served_as(cluster_queue, "clusterqueues", {"v1"}));
  CHECK(confirm_vanished(with_kueue, other_version, {}).pending.empty());
}
