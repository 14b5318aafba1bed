#include <catch2/catch.hpp>

#include "ingest/json_decoder.hpp"
#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "util/quantity.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

// A Workload as the API server writes it for a Job: the whole pod template, managedFields and
// annotations included (fields from the v1beta2 Workload CRD).
const char* full_workload = R"({
  "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
  "metadata": {"name": "job-train-7f3c2", "namespace": "ml", "uid": "w-1", "resourceVersion": "42",
    "creationTimestamp": "2026-11-29T10:00:00Z",
    "labels": {"kueue.x-k8s.io/job-uid": "job-uid-1"},
    "annotations": {"note": "not read by any view"},
    "finalizers": ["kueue.x-k8s.io/resource-in-use"],
    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "train", "uid": "job-uid-1",
                         "controller": true, "blockOwnerDeletion": true}],
    "managedFields": [{"manager": "kueue", "operation": "Update"}]},
  "spec": {"queueName": "user-queue", "priority": 100,
    "priorityClassRef": {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass", "name": "high"},
    "podSets": [
      {"name": "launcher", "count": 1, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
        "containers": [{"name": "l", "image": "mpi:latest", "command": ["mpirun"], "env": [{"name": "X", "value": "y"}],
                        "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}}}],
        "initContainers": [{"name": "setup", "image": "busybox", "resources": {"requests": {"cpu": "1", "memory": "64Mi"}}}]}}},
      {"name": "workers", "count": 4, "minCount": 2, "template": {"spec": {
        "containers": [{"name": "w", "image": "trainer:latest", "resources": {"requests": {"cpu": "2", "nvidia.com/gpu": "1"},
                                                                              "limits": {"memory": "8Gi", "nvidia.com/gpu": "1"}}},
                       {"name": "sidecar", "image": "log:latest", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}],
        "overhead": {"cpu": "100m"}, "nodeSelector": {"gpu": "a100"}, "tolerations": [{"key": "gpu"}]}}}]},
  "status": {
    "conditions": [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                    "message": "Quota reserved in ClusterQueue gpu", "lastTransitionTime": "2026-11-29T10:01:00Z",
                    "observedGeneration": 1}],
    "admission": {"clusterQueue": "gpu", "podSetAssignments": [
      {"name": "workers", "count": 4, "flavors": {"cpu": "a100", "nvidia.com/gpu": "a100"},
       "resourceUsage": {"cpu": "10400m", "nvidia.com/gpu": "4"},
       "topologyAssignment": {"levels": ["rack"], "slices": [{"domainCount": 1}]}}]},
    "admissionChecks": [{"name": "prov", "state": "Pending", "message": "", "lastTransitionTime": "2026-11-29T10:01:00Z",
                         "podSetUpdates": [{"name": "workers", "annotations": {"big": "x"}}]}],
    "schedulingStats": {"evictions": [{"reason": "Preempted", "underlyingCause": "", "count": 1}]}}
})";

}  // namespace

TEST_CASE("a cached Workload keeps what views need and sums requests instead of pod templates", "[kueue][profile]") {
  fixture_cluster cluster;
  cluster.load_json(full_workload);
  object_ptr cached = cluster.get("kueue.x-k8s.io", "Workload", "ml", "job-train-7f3c2");
  REQUIRE(cached);
  const json& body = cached->body();
  CHECK_FALSE(body["metadata"].contains("managedFields"));
  CHECK_FALSE(body["metadata"].contains("annotations"));
  CHECK_FALSE(body["metadata"].contains("finalizers"));
  CHECK(body["metadata"]["labels"]["kueue.x-k8s.io/job-uid"] == "job-uid-1");
  CHECK_FALSE(body["metadata"]["ownerReferences"][0].contains("blockOwnerDeletion"));
  const json& pod_sets = body["spec"]["podSets"];
  REQUIRE(pod_sets.size() == 2);
  for (const json& pod_set : pod_sets) {
    CHECK_FALSE(pod_set.contains("template"));
  }
  // The launcher: its init container asks for more cpu than its container.
  CHECK(pod_sets[0]["requestsPerPod"]["cpu"] == "1");
  CHECK(pod_sets[0]["requestsPerPod"]["memory"] == "256Mi");
  // The workers: both containers summed, a limit standing in for a missing request, plus overhead.
  CHECK(pod_sets[1]["requestsPerPod"]["cpu"] == "2600m");
  CHECK(pod_sets[1]["requestsPerPod"]["memory"] == "9Gi");
  CHECK(pod_sets[1]["requestsPerPod"]["nvidia.com/gpu"] == "1");
  CHECK(pod_sets[1]["minCount"] == 2);
  CHECK_FALSE(body["status"]["conditions"][0].contains("observedGeneration"));
  CHECK_FALSE(body["status"]["admission"]["podSetAssignments"][0].contains("topologyAssignment"));
  CHECK_FALSE(body["status"]["admissionChecks"][0].contains("podSetUpdates"));
  CHECK(body["spec"]["priorityClassRef"]["name"] == "high");

  // The views read the summary as they would the template.
  details_view view;
  workload_details(*cached, cluster.context(), view);
  CHECK(view.blocks["podSets"][1]["requests"]["cpu"] == "10400m");
  CHECK(view.blocks["podSets"][1]["requests"]["nvidia.com/gpu"] == "4");
  CHECK(view.blocks["podSets"][1]["assigned"]["flavors"]["nvidia.com/gpu"] == "a100");
  CHECK(view.blocks["priorityClass"]["className"] == "high");
  CHECK(view.blocks["evictions"]["total"] == 1);
  CHECK(workload_state(*cached, cluster.context()).label == "Waiting for admission checks");

  // Found by the job-uid label through the index the profile declares.
  CHECK(cluster.store.with_label(workload_kind, "kueue.x-k8s.io/job-uid", "job-uid-1").size() == 1);
}

TEST_CASE("a cached Workload does not grow with its pod templates", "[kueue][profile]") {
  json bigger = json::parse(full_workload);
  json env = json::array();
  for (int i = 0; i < 200; ++i) {
    env.push_back({{"name", "VAR_" + std::to_string(i)}, {"value", std::string(40, 'x')}});
  }
  bigger["spec"]["podSets"][1]["template"]["spec"]["containers"][0]["env"] = env;
  bigger["metadata"]["name"] = "job-train-bigger";
  fixture_cluster cluster;
  cluster.load_json(full_workload);
  cluster.load_json(bigger.dump());
  json small_body = cluster.get("kueue.x-k8s.io", "Workload", "ml", "job-train-7f3c2")->body();
  json big_body = cluster.get("kueue.x-k8s.io", "Workload", "ml", "job-train-bigger")->body();
  CHECK(bigger.dump().size() > 10000);
  CHECK(big_body.dump().size() ==
        small_body.dump().size() + std::string("bigger").size() - std::string("7f3c2").size());
}

TEST_CASE("the watch path (simdjson) caches the same summary", "[kueue][profile]") {
  ingest_profiles profiles;
  profiles.set(workload_kind, workload_profile());
  json_decoder decoder(profiles);
  auto decoded = decoder.decode_object(full_workload, &workload_kind);
  REQUIRE(decoded.ok());
  const packed_value& body = decoded.value->root();
  CHECK_FALSE(body["spec"]["podSets"][1].contains("template"));
  CHECK(body["spec"]["podSets"][1]["requestsPerPod"]["cpu"] == "2600m");
}

TEST_CASE("quantities parse and format as Kubernetes writes them", "[kueue][quantity]") {
  CHECK(parse_quantity("300m")->value == Approx(0.3));
  CHECK(parse_quantity("36Gi")->value == Approx(36.0 * 1024 * 1024 * 1024));
  CHECK(parse_quantity("1e3")->value == Approx(1000));
  CHECK(parse_quantity("2k")->value == Approx(2000));
  CHECK_FALSE(parse_quantity("lots").has_value());
  CHECK_FALSE(parse_quantity("12Qi").has_value());
  CHECK(format_quantity(3, quantity_style::plain) == "3");
  CHECK(format_quantity(1.5, quantity_style::plain) == "1500m");
  CHECK(format_quantity(600.0L * 1024 * 1024, quantity_style::binary_si) == "600Mi");
  CHECK(format_quantity(2e9L, quantity_style::decimal_si) == "2G");
  CHECK(quantity_of(json(9))->value == Approx(9));
}

TEST_CASE("a cached Workload keeps the one annotation a view reads: its group's index", "[kueue][profile]") {
  // A LeaderWorkerSet's Workloads carry kueue.x-k8s.io/component-workload-index (Kueue v0.17+,
  // pkg/controller/jobs/leaderworkerset/leaderworkerset_reconciler.go:357); the Queue section
  // orders the groups by it. Every other annotation is still dropped.
  fixture_cluster cluster;
  json object = json::parse(full_workload);
  object["metadata"]["annotations"] = {{"kueue.x-k8s.io/component-workload-index", "3"},
                                       {"kueue.x-k8s.io/job-owner-name", "llm"},
                                       {"note", "not read by any view"}};
  cluster.load_json(object.dump());
  object_ptr cached = cluster.get("kueue.x-k8s.io", "Workload", "ml", "job-train-7f3c2");
  REQUIRE(cached);
  CHECK(json(cached->body()["metadata"]["annotations"]) == json{{"kueue.x-k8s.io/component-workload-index", "3"}});
}
