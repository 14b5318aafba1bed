// Links name the apiVersion the daemon reads: the section's preference among the versions served.
#include "sections/common/links.hpp"

#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

const char* const v1beta1_workload = R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: team-a, uid: w1, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  queueName: lq
  priorityClassName: high
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]
)";

std::string priority_link_version(const fixture_cluster& cluster) {
  json view = testing::view_of(cluster, kueue::workload_kind, "team-a", "w");
  const json* link = testing::link_with(view, "priorityClass", "high");
  REQUIRE(link != nullptr);
  return (*link)["apiVersion"].get<std::string>();
}

}  // namespace

TEST_CASE("a v1beta1-only Kueue gets v1beta1 links to kinds it holds no object of", "[toolkit][links]") {
  fixture_cluster cluster;
  cluster.load_yaml(v1beta1_workload);
  // No WorkloadPriorityClass is cached or listed as served: the group's version decides.
  REQUIRE_FALSE(cluster.served.serves(kueue::priority_class_kind));
  CHECK(priority_link_version(cluster) == "kueue.x-k8s.io/v1beta1");
  CHECK(cluster.context().api_version(kueue::cluster_queue_kind) == "kueue.x-k8s.io/v1beta1");
}

TEST_CASE("links follow the section's version preference, not the server's first version", "[toolkit][links]") {
  fixture_cluster cluster;
  cluster.load_yaml(v1beta1_workload);
  cluster.served.add(served_kind{kueue::priority_class_kind, "workloadpriorityclasses", false, {"v1beta1", "v1beta2"}});
  CHECK(priority_link_version(cluster) == "kueue.x-k8s.io/v1beta2");
  cluster.served.add(served_kind{dra::device_class_kind, "deviceclasses", false, {"v1beta1", "v1"}});
  CHECK(cluster.context().api_version(dra::device_class_kind) == "resource.k8s.io/v1");
}

TEST_CASE("a kind no cluster serves is linked in its section's first choice", "[toolkit][links]") {
  fixture_cluster cluster;
  CHECK(cluster.context().api_version(dra::template_kind) == "resource.k8s.io/v1");
  CHECK(cluster.context().api_version(kueue::priority_class_kind) == "kueue.x-k8s.io/v1beta2");
  CHECK(cluster.context().api_version(core::node_kind) == "v1");
}

TEST_CASE("link_to names a cached object's own version", "[toolkit][links]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
)");
  cluster.served.add(served_kind{kueue::cluster_queue_kind, "clusterqueues", false, {"v1beta2"}});
  json cached = link_to(cluster.context(), kueue::cluster_queue_kind, "", "cq");
  CHECK(cached["apiVersion"] == "kueue.x-k8s.io/v1beta1");
  CHECK(cached["namespace"].is_null());
  CHECK(cached["path"] == "/api/v1/kueue/clusterqueues/cq");
  json absent = link_to(cluster.context(), kueue::cluster_queue_kind, "", "other");
  CHECK(absent["apiVersion"] == "kueue.x-k8s.io/v1beta2");
}

TEST_CASE("live discovery is whole: a kind it does not list is linked in its section's first choice",
          "[toolkit][links]") {
  fixture_cluster cluster;
  cluster.served.set_inferred(false);  // as the live source's discovery fills it
  // resource.k8s.io/v1alpha3 alone serves no ResourceClaim: the group's version is not the claim's.
  cluster.served.add(served_kind{dra::device_class_kind, "deviceclasses", false, {"v1alpha3"}});
  CHECK(cluster.context().api_version(dra::claim_kind) == "resource.k8s.io/v1");
  cluster.served.set_inferred(true);  // a snapshot may just hold no claim
  CHECK(cluster.context().api_version(dra::claim_kind) == "resource.k8s.io/v1alpha3");
}

TEST_CASE("every link says whether its object exists: false once the list is whole and lacks it", "[toolkit][links]") {
  // The Workload links its Local Queue lq and its priority class high; neither is cached.
  fixture_cluster cluster;
  cluster.load_yaml(v1beta1_workload);
  {
    json view = testing::view_of(cluster, kueue::workload_kind, "team-a", "w");
    const json* link = testing::link_with(view, "priorityClass", "high");
    REQUIRE(link != nullptr);
    // The list is not read yet: its path may answer 404 for want of it, so "cannot tell".
    CHECK((*link)["exists"] == "cannot tell");
  }
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, kueue::workload_kind, "team-a", "w");
  for (const json& link : view["links"]) {
    INFO(link.dump());
    REQUIRE(link.contains("exists"));
    if (link["name"] == "high" || link["name"] == "lq") {
      CHECK(link["exists"] == false);  // its path answers 404: the object is absent
    }
  }
  CHECK(view["queue"]["localQueue"]["exists"] == false);
  // A cached object's link: true.
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: team-a}
spec: {clusterQueue: cq}
)");
  testing::mark_complete(cluster);
  json again = testing::view_of(cluster, kueue::workload_kind, "team-a", "w");
  CHECK(testing::link_with(again, "localQueue", "lq") != nullptr);
  CHECK((*testing::link_with(again, "localQueue", "lq"))["exists"] == true);
}
