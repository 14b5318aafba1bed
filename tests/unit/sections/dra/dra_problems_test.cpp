// Problem category `dra`: a pod Pending for 5 minutes because a claim it needs is not
// allocated, does not exist or was not created yet.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

const char* example_gpu_class = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
---
)";

// A Pending pod with one pod claim; `claim` is its resourceClaims entry, `status` extra status.
std::string pod(const std::string& name, const std::string& claim, const std::string& status,
                const std::string& created = "2026-11-29T11:50:00Z", const std::string& extra_spec = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, uid: uid-" + name +
         ", creationTimestamp: \"" + created + "\"}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: [" +
         claim + "]\n" + extra_spec + "status:\n  phase: Pending\n" + status + "---\n";
}

std::string unschedulable(const std::string& message, const std::string& since = "2026-11-29T11:00:00Z") {
  return "  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n"
         "    lastTransitionTime: \"" +
         since + "\"\n    message: \"" + message + "\"\n";
}

const char* unallocated_claim = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: allocated, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: p, device: gpu-0}]
---
)";

const object_ptr& must(const object_ptr& object) {
  REQUIRE(object);
  return object;
}

std::vector<finding> findings(const fixture_cluster& cluster, const std::string& name) {
  return dra::evaluate_pod(*must(cluster.get("", "Pod", "ml", name)), cluster.context());
}

}  // namespace

TEST_CASE("the dra category is declared, on by default, and judges pods", "[dra][problems]") {
  section s = dra::make_section();
  REQUIRE(s.categories.size() == 1);
  CHECK(s.categories[0].id == "dra");
  CHECK(s.categories[0].title == "Dynamic Resource Allocation");
  CHECK(s.categories[0].enabled_by_default);
  REQUIRE(s.rules.size() == 1);
  CHECK(s.rules[0].type == core::pod_kind);
}

TEST_CASE("a claim not created yet or missing counts without a scheduler message", "[dra][problems]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(std::string(example_gpu_class) + unallocated_claim +
                    pod("uncreated", "{name: gpu, resourceClaimTemplateName: gpu-template}", "") +
                    pod("missing", "{name: gpu, resourceClaimName: nowhere}", "") +
                    pod("fresh", "{name: gpu, resourceClaimTemplateName: gpu-template}", "", "2026-11-29T11:58:00Z"));
  testing::mark_complete(cluster);

  auto uncreated = findings(cluster, "uncreated");
  REQUIRE(uncreated.size() == 1);
  CHECK(uncreated[0].threshold == std::chrono::minutes(5));
  // No PodScheduled condition: since the pod was created.
  CHECK(uncreated[0].since == at("2026-11-29T11:50:00Z"));
  CHECK_THAT(uncreated[0].message, Catch::Contains("not created yet from template gpu-template"));
  auto missing = findings(cluster, "missing");
  REQUIRE(missing.size() == 1);
  CHECK_THAT(missing[0].message, Catch::Contains("claim nowhere does not exist"));

  section s = dra::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(cluster.context());
  std::vector<std::string> names;
  for (const problem& p : engine.current("dra")) {
    names.push_back(p.name);
  }
  // "fresh" has waited 2 minutes only.
  CHECK(names == std::vector<std::string>{"missing", "uncreated"});
}

TEST_CASE("an unallocated claim counts only when the scheduler names a DRA reason", "[dra][problems]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(std::string(example_gpu_class) + unallocated_claim +
                    pod("dra-reason", "{name: gpu, resourceClaimName: gpu}",
                        unschedulable("0/2 nodes are available: 1 cannot allocate all claims, 1 Insufficient cpu.")) +
                    pod("cpu-only", "{name: gpu, resourceClaimName: gpu}",
                        unschedulable("0/2 nodes are available: 2 Insufficient cpu.")) +
                    pod("no-condition", "{name: gpu, resourceClaimName: gpu}", "") +
                    pod("allocated", "{name: gpu, resourceClaimName: allocated}",
                        unschedulable("0/2 nodes are available: 2 resourceclaim not available on the node.")));
  testing::mark_complete(cluster);
  auto named = findings(cluster, "dra-reason");
  REQUIRE(named.size() == 1);
  // Since the scheduler's PodScheduled condition, not the pod's creation.
  CHECK(named[0].since == at("2026-11-29T11:00:00Z"));
  CHECK_THAT(named[0].message, Catch::Contains("claim gpu is not allocated") &&
                                   Catch::Contains("cannot allocate all of the pod's claims on 1 of 2 nodes"));
  CHECK(findings(cluster, "cpu-only").empty());
  CHECK(findings(cluster, "no-condition").empty());
  CHECK(findings(cluster, "allocated").empty());
}

TEST_CASE("gated, scheduled, deleting pods and clusters without a Device Class are not judged", "[dra][problems]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  std::string pods = pod("gated", "{name: gpu, resourceClaimTemplateName: t}", "", "2026-11-29T11:00:00Z",
                         "  schedulingGates: [{name: example.com/hold}]\n") +
                     pod("bound", "{name: gpu, resourceClaimTemplateName: t}", "", "2026-11-29T11:00:00Z",
                         "  nodeName: gpu-node-1\n") +
                     pod("judged", "{name: gpu, resourceClaimTemplateName: t}", "", "2026-11-29T11:00:00Z");
  cluster.load_yaml(pods);
  testing::mark_complete(cluster);
  // No Device Class anywhere: nothing is judged.
  CHECK(findings(cluster, "judged").empty());

  cluster.load_yaml(std::string(example_gpu_class) +
                    "apiVersion: v1\nkind: Pod\nmetadata: {name: leaving, namespace: ml, deletionTimestamp: "
                    "\"2026-11-29T11:59:00Z\"}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: "
                    "[{name: gpu, resourceClaimTemplateName: t}]\nstatus: {phase: Pending}\n");
  CHECK(findings(cluster, "judged").size() == 1);
  CHECK(findings(cluster, "gated").empty());
  CHECK(findings(cluster, "bound").empty());
  CHECK(findings(cluster, "leaving").empty());
}

TEST_CASE("a claim asking for a missing device class says so once, not again in the scheduler's words",
          "[dra][problems]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(std::string(example_gpu_class) + R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: typo, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.typo.com}}]}}
---
)" +
                    pod("typo", "{name: gpu, resourceClaimName: typo}",
                        unschedulable("0/2 nodes are available: request gpu: device class gpu.typo.com "
                                      "does not exist. preemption: 0/2 nodes are available: 2 Preemption "
                                      "is not helpful for scheduling.")));
  testing::mark_complete(cluster);
  auto found = findings(cluster, "typo");
  REQUIRE(found.size() == 1);
  const std::string& message = found[0].message;
  INFO(message);
  CHECK(message == "Pending: claim typo asks for device class gpu.typo.com, which does not exist.");
}
