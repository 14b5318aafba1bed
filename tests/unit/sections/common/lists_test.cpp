// One `exists` rule and one wording for an incomplete list, in every section.
#include "sections/common/lists.hpp"

#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

const char* const lonely_queues = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  cohortName: research
  admissionChecks: [provisioning]
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: default, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: child}
spec: {parentName: research}
)";

}  // namespace

TEST_CASE("a Cluster Queue's flavors, checks and cohort exist by the one rule", "[toolkit][exists]") {
  fixture_cluster cluster;
  cluster.load_yaml(lonely_queues);
  auto cq = cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cq");
  auto child = cluster.get("kueue.x-k8s.io", "Cohort", "", "child");
  SECTION("lists not read yet: cannot tell (these were a plain false)") {
    details_view view;
    kueue::cluster_queue_details(*cq, cluster.context(), view, {});
    CHECK(view.blocks["flavors"][0]["exists"] == "cannot tell");
    CHECK(view.blocks["admissionChecks"][0]["exists"] == "cannot tell");
    CHECK(view.blocks["cohortLink"]["exists"] == "cannot tell");
    details_view cohort;
    kueue::cohort_details(*child, cluster.context(), cohort);
    CHECK(cohort.blocks["parent"]["exists"] == "cannot tell");
  }
  SECTION("lists read in full: false") {
    testing::mark_complete(cluster);
    details_view view;
    kueue::cluster_queue_details(*cq, cluster.context(), view, {});
    CHECK(view.blocks["flavors"][0]["exists"] == false);
    CHECK(view.blocks["admissionChecks"][0]["exists"] == false);
    CHECK(view.blocks["cohortLink"]["exists"] == false);
    details_view cohort;
    kueue::cohort_details(*child, cluster.context(), cohort);
    CHECK(cohort.blocks["parent"]["exists"] == false);
  }
}

TEST_CASE("exists_json: true, false or cannot tell", "[toolkit][exists]") {
  fixture_cluster cluster;
  view_context context = cluster.context();
  CHECK(exists_json(true, context, kueue::cohort_kind) == true);
  CHECK(exists_json(false, context, kueue::cohort_kind) == "cannot tell");
  CHECK(exists_json(false, context, kueue::cohort_kind, true) == false);
  cluster.store.set_completeness(kueue::cohort_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  CHECK(exists_json(cluster.context(), kueue::cohort_kind, "", "x") == "cannot tell");
  cluster.store.set_completeness(kueue::cohort_kind, {list_completeness::state::complete, ""});
  CHECK(exists_json(cluster.context(), kueue::cohort_kind, "", "x") == false);
}

TEST_CASE("why a list may be incomplete is said in the store's words everywhere", "[toolkit][lists]") {
  fixture_cluster cluster;
  CHECK(incomplete_reason(cluster.context(), kueue::workload_kind) == "not read yet");
  cluster.store.set_completeness(kueue::workload_kind, {list_completeness::state::unreadable, ""});
  CHECK(incomplete_reason(cluster.context(), kueue::workload_kind) == "cannot be read");
  cluster.store.set_completeness(kueue::workload_kind, {list_completeness::state::truncated, ""});
  CHECK(incomplete_reason(cluster.context(), kueue::workload_kind, 5000, "Workloads") == "cut at 5000 Workloads");
  cluster.store.set_completeness(kueue::workload_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  CHECK(incomplete_reason(cluster.context(), kueue::workload_kind) == "forbidden by RBAC");
  cluster.store.set_completeness(kueue::workload_kind, {list_completeness::state::complete, ""});
  CHECK(incomplete_reason(cluster.context(), kueue::workload_kind).empty());
  CHECK(may_be_incomplete("The Workload list", "forbidden by RBAC") ==
        "The Workload list may be incomplete: forbidden by RBAC.");
}

TEST_CASE("a pod's claim that cannot be told says why in the same words", "[toolkit][lists]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: p1}
spec:
  containers: [{name: main, image: x}]
  resourceClaims: [{name: gpu, resourceClaimName: unread}]
status: {phase: Pending}
)");
  cluster.store.set_completeness(dra::claim_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  json view = testing::view_of(cluster, core::pod_kind, "ml", "p");
  CHECK(view["claims"][0]["state"] == "cannot tell");
  CHECK(view["claims"][0]["message"] ==
        "Claim unread is not among the claims read. The Resource Claim list may be incomplete: forbidden by RBAC.");
}
