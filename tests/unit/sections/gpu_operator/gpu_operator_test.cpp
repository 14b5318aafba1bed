// The GPU Operator section over the fixtures of tests/fixtures/gpu-operator/: Cluster Policy
// states and components (every switch unset, every switch set, sandbox in both modes,
// useNvidiaDriverCRD), DaemonSets in every rollout stage, NVIDIA Drivers, the GPU nodes page in
// every MIG strategy and state, the node GPU block, the problems at their thresholds, and
// malformed objects.
#include <catch2/catch.hpp>

#include "gpu_operator_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "sections/core/core_section.hpp"
#include "sections/gpu_operator/gpu_operator_reading.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"
#include "support/demo_daemon.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using namespace sextant::gpu_operator;
using sextant::gpu_operator_test::component_row;
using sextant::testing::at;
using sextant::testing::fixture_cluster;
using sextant::testing::problem_of;
using sextant::testing::problems_harness;

namespace {

const char* now_text = "2026-11-29T12:00:00Z";

fixture_cluster loaded(const std::string& file, const char* when = now_text) {
  fixture_cluster cluster(at(when));
  cluster.load_file(testing::fixtures_dir() / "gpu-operator" / file);
  testing::mark_complete(cluster);
  return cluster;
}

json policy_view(const fixture_cluster& cluster, const std::string& name) {
  return testing::view_of(cluster, cluster_policy_kind, "", name);
}

bool has_row(const json& view, const std::string& component) {
  for (const json& r : view["components"]) {
    if (r["component"] == component) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("a policy setting no switch is ready with NoGPUNodes and expects the operator's defaults", "[gpu-operator]") {
  fixture_cluster cluster = loaded("policy-switches-unset.yaml");
  json view = policy_view(cluster, "cluster-policy");
  CHECK(view["state"]["label"] == "Ready");
  CHECK(view["state"]["reason"] == "NoGPUNodes");
  CHECK(view["state"]["message"] == "No GPU node found, watching for new nodes to join the cluster.");
  CHECK(view["mig"]["strategy"] == "not set");
  CHECK(view["mig"]["explanation"].get<std::string>().find("default is none") != std::string::npos);
  CHECK(view["migStrategy"] == "not set");
  CHECK(view["operatorNamespace"] == "gpu-operator");
  CHECK(view["duplicate"] == false);
  // Defaults: all on except the node status exporter; no sandbox rows.
  CHECK(component_row(view, "driver")["expected"] == true);
  CHECK(component_row(view, "driver")["expectedBecause"] == "on by the operator's default");
  CHECK(component_row(view, "driver")["status"] == "expected but not found");
  CHECK(component_row(view, "driver")["exists"] == false);  // the one in other-namespace is not the operator's
  CHECK(component_row(view, "DCGM")["expected"] == true);
  CHECK(component_row(view, "node status exporter")["expected"] == false);
  CHECK(component_row(view, "node status exporter")["status"] == "not expected");
  CHECK(component_row(view, "operator validator")["expectedBecause"] == "always deployed");
  CHECK_FALSE(has_row(view, "sandbox validator"));
  CHECK_FALSE(has_row(view, "VFIO manager"));
  CHECK(component_row(view, "MPS control daemon")["setting"] == "spec.devicePlugin.enabled");
  CHECK(component_row(view, "MPS control daemon")["set"].is_null());
  // Every rollout stage.
  CHECK(component_row(view, "device plugin")["status"] == "rolled out");
  CHECK(component_row(view, "DCGM exporter")["status"] == "3 of 8 ready, 5 of 8 updated");
  CHECK(component_row(view, "GPU Feature Discovery")["status"] ==
        "the DaemonSet controller has not seen the newest spec yet");
  CHECK(component_row(view, "MIG manager")["status"] == "rolled out: no node to run on");
  CHECK(component_row(view, "container toolkit")["status"] == "2 of 8 updated");
  CHECK(component_row(view, "operator validator")["status"] == "6 of 8 available");
  const json& dp = component_row(view, "device plugin")["daemonSets"][0];
  CHECK(dp["name"] == "nvidia-device-plugin-daemonset");
  CHECK(dp["rollout"]["desired"] == 8);
  CHECK(dp["rollout"]["rolledOut"] == true);
  CHECK(testing::link_with(view, "daemonset", "nvidia-dcgm-exporter") != nullptr);
}

TEST_CASE("a policy setting every switch: OperandNotReady, precompiled drivers, and a duplicate", "[gpu-operator]") {
  fixture_cluster cluster = loaded("policy-switches-set.yaml");
  json view = policy_view(cluster, "gpu-cluster-policy");
  CHECK(view["state"]["label"] == "Not ready");
  CHECK(view["state"]["reason"] == "OperandNotReady");
  CHECK(view["state"]["message"] ==
        "ClusterPolicy is not ready; states not ready: [state-driver state-node-status-exporter]");
  CHECK(view["since"] == "2026-11-29T11:40:00Z");
  CHECK(view["mig"]["strategy"] == "mixed");
  CHECK(component_row(view, "DCGM")["expected"] == false);
  CHECK(component_row(view, "DCGM")["expectedBecause"] == "disabled in the policy");
  CHECK(component_row(view, "DCGM")["status"] == "not expected, but found: rolled out");
  CHECK(component_row(view, "MIG manager")["expected"] == false);
  CHECK(component_row(view, "node status exporter")["expected"] == true);
  CHECK(component_row(view, "node status exporter")["expectedBecause"] == "enabled in the policy");
  // Sandbox switches are set but sandbox workloads are off: no sandbox rows.
  CHECK_FALSE(has_row(view, "VFIO manager"));
  const json& driver = component_row(view, "driver");
  CHECK(driver["daemonSets"].size() == 2);
  CHECK(driver["status"] ==
        "nvidia-driver-daemonset-5.15.0-105-generic-ubuntu22.04: rolled out; "
        "nvidia-driver-daemonset-6.8.0-40-generic-ubuntu24.04: 1 of 4 ready");

  json duplicate = policy_view(cluster, "second-policy");
  CHECK(duplicate["state"]["label"] == "Not ready");
  CHECK(duplicate["state"]["reason"] == "Ignored");
  CHECK(duplicate["duplicate"] == true);
  CHECK(duplicate["actedOn"] == "gpu-cluster-policy");
  CHECK(testing::has_note_containing(duplicate, "is a duplicate"));
  CHECK(component_row(duplicate, "driver")["exists"] == "cannot tell");
}

TEST_CASE("sandbox workloads list the sandbox and Kata components, by mode", "[gpu-operator]") {
  fixture_cluster cluster = loaded("policy-sandbox.yaml");
  json kubevirt = policy_view(cluster, "kubevirt-policy");
  CHECK(component_row(kubevirt, "sandbox validator")["expected"] == true);
  CHECK(component_row(kubevirt, "VFIO manager")["expected"] == true);
  CHECK(component_row(kubevirt, "vGPU manager")["expected"] == false);
  CHECK(component_row(kubevirt, "sandbox device plugin")["expected"] == true);
  CHECK(component_row(kubevirt, "sandbox device plugin")["status"] == "rolled out");
  CHECK(component_row(kubevirt, "Kata sandbox device plugin")["expected"] == false);
  CHECK(component_row(kubevirt, "Kata sandbox device plugin")["expectedBecause"] == "only in sandbox mode kata");
  CHECK(component_row(kubevirt, "confidential computing manager")["expected"] == false);
  CHECK(component_row(kubevirt, "Kata manager")["expected"] == false);
  CHECK(component_row(kubevirt, "Kata manager")["expectedBecause"] == "deprecated: the operator no longer deploys it");
  CHECK(kubevirt["sandboxWorkloads"]["mode"] == "kubevirt");

  json kata = policy_view(cluster, "kata-policy");
  CHECK(kata["sandboxWorkloads"]["mode"] == "kata");
  CHECK(component_row(kata, "Kata sandbox device plugin")["expected"] == true);
  CHECK(component_row(kata, "Kata sandbox device plugin")["status"] == "rolled out");
  CHECK(component_row(kata, "sandbox device plugin")["expected"] == false);
  CHECK(component_row(kata, "confidential computing manager")["expected"] == true);
  CHECK(component_row(kata, "confidential computing manager")["status"] == "expected but not found");
}

TEST_CASE("with useNvidiaDriverCRD the driver row points to the NVIDIA Drivers and their DaemonSets",
          "[gpu-operator]") {
  fixture_cluster cluster = loaded("policy-driver-crd.yaml");
  json view = policy_view(cluster, "cluster-policy");
  CHECK(view["useNvidiaDriverCRD"] == true);
  const json& driver = component_row(view, "driver");
  CHECK(driver["expected"] == false);
  CHECK(driver["nvidiaDrivers"].size() == 3);
  CHECK(driver["status"].get<std::string>().starts_with("deployed by 3 NVIDIA Driver objects"));
  CHECK(driver["status"].get<std::string>().find("orphaned") != std::string::npos);
  CHECK(driver["nvidiaDrivers"][0]["name"] == "default");
  CHECK(driver["nvidiaDrivers"][0]["daemonSets"][0]["name"] == "nvidia-gpu-driver-ubuntu22.04-7c6d8f9b5");
  CHECK(testing::link_with(view, "nvidiadriver", "h100-nodes") != nullptr);

  json ready = testing::view_of(cluster, nvidia_driver_kind, "", "default");
  CHECK(ready["state"]["label"] == "Ready");
  CHECK(ready["driverType"] == "gpu");
  CHECK(ready["nodeSelector"]["nvidia.com/gpu.deploy.driver"] == "true");
  CHECK(ready["daemonSets"]["items"][0]["rollout"]["words"] == "rolled out");
  CHECK(ready["daemonSets"]["incomplete"] == false);
  json waiting = testing::view_of(cluster, nvidia_driver_kind, "", "h100-nodes");
  CHECK(waiting["state"]["label"] == "Not ready");
  CHECK(waiting["state"]["reason"] == "DriverNotReady");
  CHECK(waiting["state"]["message"] == "Waiting for driver pod to be ready");
  CHECK(waiting["daemonSets"]["items"][0]["rollout"]["words"] == "0 of 2 ready");
  json disabled = testing::view_of(cluster, nvidia_driver_kind, "", "vgpu-hosts");
  CHECK(disabled["state"]["label"] == "Not ready");
  CHECK(disabled["state"]["reason"] == "Disabled");
  CHECK(disabled["state"]["message"] == "useNvidiaDriverCRD is not enabled in ClusterPolicy.");
  CHECK(disabled["driverType"] == "vgpu-host-manager");
}

// The operator writes status.state and its Ready/Error conditions in two writes (ClusterPolicy:
// updateCRState, then SetConditionsReady or SetConditionsError), so a reader can find one of
// them still from before the other. Seen from the real operator (tests/integration/
// gpu_operator_live_test.cpp): state ready while the Ready condition still said False, reason
// Error, no message. Neither half lends its words to a state it does not agree with.
TEST_CASE("a state written before its conditions borrows no reason from a condition that disagrees", "[gpu-operator]") {
  fixture_cluster cluster(at(now_text));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: cluster-policy, creationTimestamp: "2026-11-29T11:00:00Z"}
spec: {}
status:
  namespace: gpu-operator
  state: ready
  conditions:
  - {type: Ready, status: "False", reason: Error, message: "", lastTransitionTime: "2026-11-29T11:50:00Z"}
  - {type: Error, status: "True", reason: OperandNotReady, lastTransitionTime: "2026-11-29T11:50:00Z",
     message: "ClusterPolicy is not ready, states not ready: [state-driver]"}
---
apiVersion: nvidia.com/v1alpha1
kind: NVIDIADriver
metadata: {name: flipped}
spec: {driverType: gpu}
status:
  state: notReady
  conditions:
  - {type: Ready, status: "True", reason: Reconciled, message: All resources have been successfully reconciled,
     lastTransitionTime: "2026-11-29T11:50:00Z"}
  - {type: Error, status: "False", reason: Ready, message: "", lastTransitionTime: "2026-11-29T11:50:00Z"}
)");
  testing::mark_complete(cluster);
  json ready = policy_view(cluster, "cluster-policy");
  // The view keeps an empty reason as ""; the API answers null for it.
  CHECK(ready["state"] == json{{"label", "Ready"}, {"reason", ""}, {"message", ""}});
  json driver = testing::view_of(cluster, nvidia_driver_kind, "", "flipped");
  CHECK(driver["state"] == json{{"label", "Not ready"}, {"reason", ""}, {"message", "status.state is notReady."}});
}

TEST_CASE("a DaemonSet list that is not complete says cannot tell", "[gpu-operator]") {
  fixture_cluster cluster = loaded("policy-switches-unset.yaml");
  cluster.store.set_completeness(daemonset_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  json view = policy_view(cluster, "cluster-policy");
  CHECK(component_row(view, "driver")["exists"] == "cannot tell");
  CHECK(component_row(view, "driver")["status"] == "cannot tell: forbidden by RBAC");
  CHECK(component_row(view, "device plugin")["status"] == "rolled out");
  CHECK(testing::has_note_containing(view, "may be incomplete"));
}

TEST_CASE("GPU nodes in every MIG strategy and state, and the node GPU block", "[gpu-operator]") {
  fixture_cluster cluster = loaded("gpu-nodes.yaml");
  computed_list page = testing::resource_of("gpu-operator", "gpunodes").list_computed(cluster.context());
  CHECK_FALSE(page.incomplete);
  REQUIRE(page.items.size() == 4);  // gpu-gone (false) and cpu-only are not GPU nodes
  CHECK(page.items[0]["name"] == "gpu-failed");
  CHECK(page.items[0]["gpu"]["mig"]["configState"] == "failed");
  CHECK(page.items[0]["gpu"]["mig"]["strategy"].is_null());
  const json& mixed = page.items[1]["gpu"];
  CHECK(mixed["mig"]["strategy"] == "mixed");
  CHECK(mixed["mig"]["configState"] == "rebooting");
  REQUIRE(mixed["resources"].size() == 3);
  CHECK(mixed["resources"][1] ==
        json{{"resource", "nvidia.com/mig-1g.10gb.me"}, {"capacity", "8"}, {"allocatable", nullptr}});
  const json& none = page.items[2]["gpu"];
  CHECK(none["product"] == "NVIDIA-A100-SXM4-40GB");
  CHECK(none["count"] == 8);
  CHECK(none["memoryMiB"] == 40960);
  CHECK(none["mig"]["strategy"] == "none");
  CHECK(none["mig"]["configState"] == "success");
  CHECK(none["mig"]["config"] == "all-disabled");
  CHECK(none["optedOut"] == json::array({"dcgm"}));
  CHECK(none["resources"] == json::array({{{"resource", "nvidia.com/gpu"}, {"capacity", "8"}, {"allocatable", "8"}}}));
  const json& single = page.items[3]["gpu"];
  CHECK(single["mig"]["strategy"] == "single");
  CHECK(single["mig"]["configState"] == "pending");
  CHECK(single["resources"][0]["allocatable"] == "54");

  json node = testing::view_of(cluster, core::node_kind, "", "gpu-single");
  CHECK(node["gpu"] == single);
  json gone = testing::view_of(cluster, core::node_kind, "", "gpu-gone");
  CHECK(gone["gpu"]["present"] == false);
  CHECK(testing::has_note_containing(gone, "gpu.present is false"));
  CHECK(testing::view_of(cluster, core::node_kind, "", "cpu-only")["gpu"].is_null());
}

TEST_CASE("the GPU nodes page lists at most 500 nodes and says when it is cut", "[gpu-operator]") {
  fixture_cluster cluster(at(now_text));
  std::vector<json> nodes;
  for (int i = 0; i < 501; ++i) {
    nodes.push_back(
        {{"apiVersion", "v1"},
         {"kind", "Node"},
         {"metadata",
          {{"name", "gpu-" + std::to_string(1000 + i)}, {"labels", {{"nvidia.com/gpu.present", "true"}}}}}});
  }
  testing::load(cluster, nodes);
  testing::mark_complete(cluster);
  computed_list page = testing::resource_of("gpu-operator", "gpunodes").list_computed(cluster.context());
  CHECK(page.items.size() == 500);
  CHECK(page.incomplete);
  CHECK(page.incomplete_reason == "cut at 500 GPU nodes");
}

TEST_CASE("GPU Operator problems at and past their thresholds", "[gpu-operator][problems]") {
  section s = make_section();
  SECTION("a policy not ready for 10 minutes, from the condition's time") {
    fixture_cluster cluster = loaded("policy-switches-set.yaml", "2026-11-29T11:49:59Z");
    problems_harness harness(s);
    CHECK(problem_of(harness.evaluate_at(cluster, "2026-11-29T11:49:59Z"), cluster_policy_kind, "gpu-cluster-policy",
                     "not-ready") == nullptr);
    const problem* p = problem_of(harness.evaluate_at(cluster, "2026-11-29T11:50:00Z"), cluster_policy_kind,
                                  "gpu-cluster-policy", "not-ready");
    REQUIRE(p != nullptr);
    CHECK(p->category == "gpu-operator");
    CHECK(p->since == at("2026-11-29T11:40:00Z"));
    CHECK(p->message ==
          "Cluster Policy not ready (OperandNotReady): ClusterPolicy is not ready; states not ready: [state-driver "
          "state-node-status-exporter].");
    // The duplicate is not judged.
    CHECK(problem_of(harness.current(), cluster_policy_kind, "second-policy", "not-ready") == nullptr);
  }
  SECTION("a component not rolled out for 10 minutes from its first sighting") {
    fixture_cluster cluster = loaded("policy-switches-unset.yaml");
    problems_harness harness(s);
    const std::string id = "component-not-rolled-out/nvidia-dcgm-exporter";
    CHECK(problem_of(harness.evaluate_at(cluster, "2026-11-29T12:00:00Z"), cluster_policy_kind, "cluster-policy", id) ==
          nullptr);
    CHECK(problem_of(harness.evaluate_at(cluster, "2026-11-29T12:09:59Z"), cluster_policy_kind, "cluster-policy", id) ==
          nullptr);
    const problem* p =
        problem_of(harness.evaluate_at(cluster, "2026-11-29T12:10:00Z"), cluster_policy_kind, "cluster-policy", id);
    REQUIRE(p != nullptr);
    CHECK(p->since == at("2026-11-29T12:00:00Z"));
    CHECK(p->message == "The DCGM exporter is not rolled out: 3 of 8 ready, 5 of 8 updated.");
    CHECK(problem_of(harness.current(), cluster_policy_kind, "cluster-policy",
                     "component-not-rolled-out/nvidia-container-toolkit-daemonset") != nullptr);
    CHECK(problem_of(harness.current(), cluster_policy_kind, "cluster-policy",
                     "component-not-rolled-out/nvidia-device-plugin-daemonset") == nullptr);
    CHECK(problem_of(harness.current(), cluster_policy_kind, "cluster-policy",
                     "component-not-rolled-out/nvidia-mig-manager") == nullptr);
    // Ready with NoGPUNodes is not a problem.
    CHECK(problem_of(harness.current(), cluster_policy_kind, "cluster-policy", "not-ready") == nullptr);
  }
  SECTION("an NVIDIA Driver not ready for 10 minutes; a disabled one is not judged") {
    fixture_cluster cluster = loaded("policy-driver-crd.yaml");
    problems_harness harness(s);
    CHECK(problem_of(harness.evaluate_at(cluster, "2026-11-29T11:54:59Z"), nvidia_driver_kind, "h100-nodes",
                     "not-ready") == nullptr);
    const problem* p =
        problem_of(harness.evaluate_at(cluster, "2026-11-29T11:55:00Z"), nvidia_driver_kind, "h100-nodes", "not-ready");
    REQUIRE(p != nullptr);
    CHECK(p->message == "NVIDIA Driver not ready (DriverNotReady): Waiting for driver pod to be ready.");
    CHECK(problem_of(harness.current(), nvidia_driver_kind, "vgpu-hosts", "not-ready") == nullptr);
    CHECK(problem_of(harness.current(), nvidia_driver_kind, "default", "not-ready") == nullptr);
  }
  SECTION("a node whose MIG state is failed for 2 minutes") {
    fixture_cluster cluster = loaded("gpu-nodes.yaml");
    problems_harness harness(s);
    CHECK(problem_of(harness.evaluate_at(cluster, "2026-11-29T12:00:00Z"), core::node_kind, "gpu-failed",
                     "mig-config-failed") == nullptr);
    const problem* p = problem_of(harness.evaluate_at(cluster, "2026-11-29T12:02:00Z"), core::node_kind, "gpu-failed",
                                  "mig-config-failed");
    REQUIRE(p != nullptr);
    CHECK(p->message ==
          "The MIG manager failed to apply the MIG configuration all-3g.40gb (nvidia.com/mig.config.state is failed).");
    CHECK(problem_of(harness.current(), core::node_kind, "gpu-mixed", "mig-config-failed") == nullptr);
  }
}

TEST_CASE("malformed GPU Operator objects read as absent, with a note, and never throw", "[gpu-operator]") {
  fixture_cluster cluster(at(now_text));
  cluster.load_yaml(R"yaml(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: bad, creationTimestamp: "2026-11-28T08:00:00Z"}
spec:
  driver: {enabled: "yes", useNvidiaDriverCRD: 1}
  mig: [1]
  sandboxWorkloads: "on"
status: {state: [x], namespace: 7, conditions: {type: Ready}}
---
apiVersion: nvidia.com/v1alpha1
kind: NVIDIADriver
metadata: {name: bad-driver}
spec: {driverType: 3, nodeSelector: [a]}
status: {state: 1}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-driver-daemonset, namespace: gpu-operator, generation: "x"}
status: {desiredNumberScheduled: "8", numberReady: -3}
---
apiVersion: v1
kind: Node
metadata: {name: bad-node, labels: {nvidia.com/gpu.present: "true", nvidia.com/gpu.count: eight}}
status: {capacity: [1], allocatable: {nvidia.com/gpu: {}}}
)yaml");
  testing::mark_complete(cluster);
  json policy;
  REQUIRE_NOTHROW(policy = policy_view(cluster, "bad"));
  CHECK(policy["state"]["label"] == "Not ready");
  CHECK(testing::has_note_containing(policy, "spec.driver.enabled is not true or false"));
  CHECK(testing::has_note_containing(policy, "useNvidiaDriverCRD is not true or false"));
  CHECK(testing::has_note_containing(policy, "status.conditions is not a list"));
  CHECK(policy["mig"]["strategy"] == "not set");
  json driver;
  REQUIRE_NOTHROW(driver = testing::view_of(cluster, nvidia_driver_kind, "", "bad-driver"));
  CHECK(driver["nodeSelector"].is_null());
  CHECK(testing::has_note_containing(driver, "spec.nodeSelector is not a map"));
  json node;
  REQUIRE_NOTHROW(node = testing::view_of(cluster, core::node_kind, "", "bad-node"));
  CHECK(node["gpu"]["count"].is_null());
  // A DaemonSet has no page: its rollout is read for the components.
  object_ptr daemonset = cluster.get("apps", "DaemonSet", "gpu-operator", "nvidia-driver-daemonset");
  REQUIRE(daemonset != nullptr);
  REQUIRE_NOTHROW(read_rollout(daemonset->body()));
  section s = make_section();
  problems_harness harness(s);
  REQUIRE_NOTHROW(harness.evaluate(cluster));
}

TEST_CASE("the operator's DaemonSets have no page of their own: they show inside the components", "[gpu-operator]") {
  testing::demo_daemon demo;
  auto [status, sections] = demo.get("/api/v1/sections");
  REQUIRE(status == 200);
  std::vector<std::string> resources;
  for (const json& s : sections["sections"]) {
    if (s["id"] == "gpu-operator") {
      for (const json& r : s["resources"]) {
        resources.push_back(r["id"]);
      }
    }
  }
  CHECK(resources == std::vector<std::string>{"clusterpolicies", "nvidiadrivers", "gpunodes"});
  CHECK(demo.get("/api/v1/gpu-operator/daemonsets").first == 404);

  auto [details_status, policy] = demo.get("/api/v1/gpu-operator/clusterpolicies/cluster-policy");
  REQUIRE(details_status == 200);
  bool linked = false;
  for (const json& link : policy["links"]) {
    if (link["rel"] == "daemonset") {
      linked = true;
      CHECK(link["path"].is_null());  // no page to point to; the link still names the object
      CHECK(link["kind"] == "DaemonSet");
    }
  }
  CHECK(linked);
}
