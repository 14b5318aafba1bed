#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream_documents;

namespace {

// Two queues of one cohort, written from the ClusterQueue CRD: `gpu-a` borrows beyond its
// nominal quota, `gpu-b` lends with a lending limit. gpu-a is v1beta2, gpu-b v1beta1.
const char* cohort_yaml = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: gpu-a}
spec:
  cohortName: research
  resourceGroups:
  - coveredResources: [cpu, nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: cpu, nominalQuota: 32}
      - {name: nvidia.com/gpu, nominalQuota: 8, borrowingLimit: 4}
status:
  flavorsReservation:
  - name: a100
    resources:
    - {name: cpu, total: "24"}
    - {name: nvidia.com/gpu, total: "12", borrowed: "4"}
  flavorsUsage:
  - name: a100
    resources:
    - {name: cpu, total: "16"}
    - {name: nvidia.com/gpu, total: "8"}
  pendingWorkloads: 3
  reservingWorkloads: 3
  admittedWorkloads: 2
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: gpu-b}
spec:
  cohort: research
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, memory]
    flavors:
    - name: a100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 8, lendingLimit: 6}
      - {name: memory, nominalQuota: 512Gi}
status:
  flavorsReservation:
  - name: a100
    resources:
    - {name: nvidia.com/gpu, total: "0"}
    - {name: memory, total: 64Gi}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: alone}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 500m}
status:
  flavorsReservation:
  - name: default
    resources:
    - {name: cpu, total: 250m}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: research}
spec:
  parentName: organization
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 4, lendingLimit: 2}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: organization}
spec: {}
)";

const json* row(const json& rows, const std::string& flavor, const std::string& resource) {
  for (const json& r : rows) {
    if (r["flavor"] == flavor && r["resource"] == resource) {
      return &r;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("quota against usage per flavor and resource, over 100 % while borrowing", "[kueue][quota]") {
  fixture_cluster cluster;
  cluster.load_yaml(cohort_yaml);
  auto context = cluster.context();
  json rows = quota_table(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "gpu-a"), context);
  const json* gpu = row(rows, "a100", "nvidia.com/gpu");
  REQUIRE(gpu != nullptr);
  CHECK((*gpu)["nominal"] == "8");
  CHECK((*gpu)["reserved"] == "12");
  CHECK((*gpu)["borrowed"] == "4");
  CHECK((*gpu)["sharePercent"] == 150.0);
  CHECK((*gpu)["inUse"] == "8");
  CHECK((*gpu)["borrowingLimit"] == "4");
  CHECK((*gpu)["lendingLimit"] == "no limit");
  const json* cpu = row(rows, "a100", "cpu");
  REQUIRE(cpu != nullptr);
  CHECK((*cpu)["sharePercent"] == 75.0);
  CHECK((*cpu)["borrowed"] == "0");
  CHECK((*cpu)["borrowingLimit"] == "no limit");

  details_view view;
  cluster_queue_details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "gpu-a"), context, view, {});
  CHECK(view.blocks["cohortLink"]["name"] == "research");
  CHECK(view.blocks["cohortLink"]["exists"] == true);
  CHECK(view.blocks["cohortLink"]["path"] == "/api/v1/kueue/cohorts/research");
  CHECK(view.blocks["workloads"]["admittedWorkloads"] == 2);
}

TEST_CASE("lending limits and v1beta1 fields read the same", "[kueue][quota]") {
  fixture_cluster cluster;
  cluster.load_yaml(cohort_yaml);
  auto context = cluster.context();
  json rows = quota_table(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "gpu-b"), context);
  const json* gpu = row(rows, "a100", "nvidia.com/gpu");
  REQUIRE(gpu != nullptr);
  CHECK((*gpu)["lendingLimit"] == "6");
  CHECK((*gpu)["borrowingLimit"] == "no limit");
  CHECK((*gpu)["sharePercent"] == 0.0);
  CHECK((*gpu)["inUse"].is_null());
  const json* memory = row(rows, "a100", "memory");
  REQUIRE(memory != nullptr);
  CHECK((*memory)["nominal"] == "512Gi");
  CHECK((*memory)["sharePercent"] == 12.5);
}

TEST_CASE("a queue outside any cohort has no limits to show", "[kueue][quota]") {
  fixture_cluster cluster;
  cluster.load_yaml(cohort_yaml);
  auto context = cluster.context();
  json rows = quota_table(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "alone"), context);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["borrowingLimit"].is_null());
  CHECK(rows[0]["lendingLimit"].is_null());
  CHECK(rows[0]["sharePercent"] == 50.0);
  details_view view;
  cluster_queue_details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "alone"), context, view, {});
  CHECK(view.blocks["cohortLink"].is_null());
}

TEST_CASE("a Cohort shows its own quotas, its parent and its members, without usage", "[kueue][cohorts]") {
  fixture_cluster cluster;
  cluster.load_yaml(cohort_yaml);
  auto context = cluster.context();
  auto research = cluster.get("kueue.x-k8s.io", "Cohort", "", "research");
  details_view view;
  cohort_details(*research, context, view);
  CHECK(view.blocks["parent"]["name"] == "organization");
  CHECK(view.blocks["parent"]["exists"] == true);
  REQUIRE(view.blocks["quota"].size() == 1);
  CHECK(view.blocks["quota"][0]["nominal"] == "4");
  CHECK(view.blocks["quota"][0]["lendingLimit"] == "2");
  CHECK(view.blocks["quota"][0]["borrowingLimit"] == "no limit");
  CHECK_FALSE(view.blocks["quota"][0].contains("reserved"));
  REQUIRE(view.blocks["members"].size() == 2);
  CHECK(view.blocks["members"][0]["name"] == "gpu-a");
  CHECK(view.blocks["members"][1]["name"] == "gpu-b");
  CHECK(cohort_state(*research, context).message == "Under cohort organization.");

  details_view root;
  cohort_details(*cluster.get("kueue.x-k8s.io", "Cohort", "", "organization"), context, root);
  CHECK(root.blocks["parent"].is_null());
  REQUIRE(root.blocks["children"].size() == 1);
  CHECK(root.blocks["children"][0]["name"] == "research");
}

TEST_CASE("a cohort tree and a cycle", "[kueue][cohorts]") {
  fixture_cluster cluster;
  load(cluster, upstream_documents("kueue/cohort-tree.yaml"));
  load(cluster, upstream_documents("kueue/cohort-cluster-queues.yaml"));
  auto context = cluster.context();
  details_view view;
  cohort_details(*cluster.get("kueue.x-k8s.io", "Cohort", "", "platform"), context, view);
  CHECK(view.blocks["members"].size() == 3);
  CHECK(cohort_state(*cluster.get("kueue.x-k8s.io", "Cohort", "", "research"), context).label == "Defined");

  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Cohort
metadata: {name: left}
spec: {parentName: right}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Cohort
metadata: {name: right}
spec: {parentName: left}
)");
  object_state cycle = cohort_state(*cluster.get("kueue.x-k8s.io", "Cohort", "", "left"), context);
  CHECK(cycle.label == "In a cycle");
  CHECK_THAT(cycle.message, Catch::Contains("disables every member"));
}
