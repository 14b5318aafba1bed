// GPU Operator objects as other eras and paths of the operator write them: the OpenShift
// Driver Toolkit's RHCOS-suffixed DaemonSets, a Cluster Policy from before v23.9 (no conditions),
// the device plugin's renamed time-slicing resource, and components timed from their pods' own
// Ready conditions. Written from the v26.7.0 and v23.6 schemas.
#include <catch2/catch.hpp>

#include "gpu_operator_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "sections/core/core_section.hpp"
#include "sections/gpu_operator/gpu_operator_reading.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using namespace sextant::gpu_operator;
using sextant::gpu_operator_test::component_row;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

// The Cluster Policy's problem of this id after an evaluation at `when`, from one harness kept
// across evaluations (first sightings carry over).
struct judge {
  testing::problems_harness harness{make_section()};

  const problem* at_time(fixture_cluster& cluster, const char* when, const std::string& name, const std::string& id) {
    return testing::problem_of(harness.evaluate_at(cluster, when), cluster_policy_kind, name, id);
  }
};

}  // namespace

TEST_CASE("on OpenShift the vGPU manager's DaemonSet carries the RHCOS suffix, as the driver's does",
          "[gpu-operator]") {
  // With the Driver Toolkit, the operator makes one DaemonSet per RHCOS version for the driver and
  // the vGPU manager alike, named "<name>-<rhcos version>" (controllers/object_controls.go:3281-3285,
  // 4693-4695 and 4697-4718 at v26.7.0), and finds both by prefix when it cleans up (:4247). No other component
  // is renamed: precompiled drivers (:3222-3225) are the driver's alone.
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: ocp-policy, uid: uid-ocp, creationTimestamp: "2026-11-28T08:00:00Z"}
spec:
  sandboxWorkloads: {enabled: true, defaultWorkload: vm-vgpu}
  vgpuManager: {enabled: true}
status:
  state: ready
  namespace: nvidia-gpu-operator
  conditions:
  - {type: Ready, status: "True", reason: Reconciled, message: ClusterPolicy is ready as all resources have been successfully reconciled, lastTransitionTime: "2026-11-28T08:10:00Z"}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-vgpu-manager-daemonset-415.92.202406251950-0, namespace: nvidia-gpu-operator, uid: uid-ds-vgpu, generation: 1}
status: {desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 1, numberAvailable: 1, observedGeneration: 1}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-driver-daemonset-415.92.202406251950-0, namespace: nvidia-gpu-operator, uid: uid-ds-driver, generation: 1}
status: {desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2, observedGeneration: 1}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-vgpu-device-manager-extra, namespace: nvidia-gpu-operator, uid: uid-ds-other, generation: 1}
status: {desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2, observedGeneration: 1}
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, cluster_policy_kind, "", "ocp-policy");
  const json& vgpu = component_row(view, "vGPU manager");
  CHECK(vgpu["expected"] == true);
  CHECK(vgpu["exists"] == true);
  REQUIRE(vgpu["daemonSets"].size() == 1);
  CHECK(vgpu["daemonSets"][0]["name"] == "nvidia-vgpu-manager-daemonset-415.92.202406251950-0");
  CHECK(vgpu["status"] == "1 of 2 ready");
  CHECK(component_row(view, "driver")["status"] == "rolled out");
  // A component the operator does not rename is found by its exact name only.
  CHECK(component_row(view, "vGPU device manager")["exists"] == false);

  // Its rollout can now become a problem.
  judge problems;
  CHECK(problems.at_time(cluster, "2026-11-29T12:00:00Z", "ocp-policy",
                         "component-not-rolled-out/nvidia-vgpu-manager-daemonset") == nullptr);
  CHECK(problems.at_time(cluster, "2026-11-29T12:10:00Z", "ocp-policy",
                         "component-not-rolled-out/nvidia-vgpu-manager-daemonset") != nullptr);
}

TEST_CASE("a Cluster Policy from before v23.9 is not dated from its creation", "[gpu-operator][problems]") {
  // v23.6's ClusterPolicyStatus has state and namespace only (api/v1/clusterpolicy_types.go:1572-1578
  // at v23.6.2); conditions came in v23.9. Nothing tells since when it has not been ready.
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: old-policy, uid: uid-old, creationTimestamp: "2025-03-01T08:00:00Z"}
spec: {}
status: {state: notReady, namespace: gpu-operator}
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, cluster_policy_kind, "", "old-policy");
  CHECK(view["state"]["label"] == "Not ready");
  CHECK(view["since"].is_null());
  CHECK(testing::has_note_containing(view, "writes no conditions"));
  CHECK(testing::has_note_containing(view, "from when sextantd first saw it not ready"));

  judge problems;
  CHECK(problems.at_time(cluster, "2026-11-29T12:00:00Z", "old-policy", "not-ready") == nullptr);
  CHECK(problems.at_time(cluster, "2026-11-29T12:09:59Z", "old-policy", "not-ready") == nullptr);
  const problem* p = problems.at_time(cluster, "2026-11-29T12:10:00Z", "old-policy", "not-ready");
  REQUIRE(p != nullptr);
  CHECK(p->since == at("2026-11-29T12:00:00Z"));
  CHECK(p->message == "Cluster Policy not ready: status.state is notReady.");
}

TEST_CASE("a GPU advertised as nvidia.com/gpu.shared is among the node's GPU resources", "[gpu-operator]") {
  // The device plugin renames time-sliced (or MPS-shared) GPUs to <name>.shared with
  // renameByDefault (NVIDIA/k8s-device-plugin api/config/v1/replicas.go:204-207, consts.go:26).
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: v1
kind: Node
metadata:
  name: shared-gpu
  labels: {nvidia.com/gpu.present: "true", nvidia.com/gpu.count: "2", nvidia.com/gpu.replicas: "4", nvidia.com/gpu.sharing-strategy: time-slicing}
status:
  capacity: {cpu: "32", nvidia.com/gpu.shared: "8"}
  allocatable: {cpu: "32", nvidia.com/gpu.shared: "8"}
---
apiVersion: v1
kind: Node
metadata: {name: shared-only}
status:
  capacity: {nvidia.com/gpu.shared: "4"}
)");
  testing::mark_complete(cluster);
  json node = testing::view_of(cluster, core::node_kind, "", "shared-gpu");
  CHECK(node["gpu"]["resources"] ==
        json::array({{{"resource", "nvidia.com/gpu.shared"}, {"capacity", "8"}, {"allocatable", "8"}}}));
  // A node showing only the renamed resource (no labels yet) still has a GPU block.
  CHECK(testing::view_of(cluster, core::node_kind, "", "shared-only")["gpu"]["resources"][0]["resource"] ==
        "nvidia.com/gpu.shared");
}

TEST_CASE("a component's pods not ready are timed from their own Ready conditions", "[gpu-operator][problems]") {
  // api.md: since is taken from the object wherever it says. A DaemonSet carries no time, but its
  // pods' Ready conditions do; a daemon restarted (or a snapshot) sees the old time.
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: cluster-policy, uid: uid-cp, creationTimestamp: "2026-11-28T08:00:00Z"}
spec: {}
status:
  state: notReady
  namespace: gpu-operator
  conditions:
  - {type: Ready, status: "False", reason: OperandNotReady, message: "ClusterPolicy is not ready, states not ready: [state-device-plugin]", lastTransitionTime: "2026-11-29T11:40:00Z"}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-device-plugin-daemonset, namespace: gpu-operator, uid: uid-ds-dp, generation: 1}
status: {desiredNumberScheduled: 3, currentNumberScheduled: 3, updatedNumberScheduled: 3, numberReady: 1, numberAvailable: 1, observedGeneration: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: nvidia-device-plugin-daemonset-aaaaa
  namespace: gpu-operator
  creationTimestamp: "2026-11-28T08:05:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: nvidia-device-plugin-daemonset, uid: uid-ds-dp, controller: true}]
spec: {nodeName: gpu-1}
status:
  phase: Running
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-11-28T08:06:00Z"}]
---
apiVersion: v1
kind: Pod
metadata:
  name: nvidia-device-plugin-daemonset-bbbbb
  namespace: gpu-operator
  creationTimestamp: "2026-11-28T08:05:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: nvidia-device-plugin-daemonset, uid: uid-ds-dp, controller: true}]
spec: {nodeName: gpu-2}
status:
  phase: Running
  conditions: [{type: Ready, status: "False", reason: ContainersNotReady, lastTransitionTime: "2026-11-29T11:45:00Z"}]
---
apiVersion: v1
kind: Pod
metadata:
  name: nvidia-device-plugin-daemonset-ccccc
  namespace: gpu-operator
  creationTimestamp: "2026-11-29T11:50:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: nvidia-device-plugin-daemonset, uid: uid-ds-dp, controller: true}]
spec: {nodeName: gpu-3}
status: {phase: Pending}
)");
  testing::mark_complete(cluster);
  const std::string id = "component-not-rolled-out/nvidia-device-plugin-daemonset";
  judge problems;
  // The first sighting at 11:54 already knows a pod has been not ready since 11:45.
  CHECK(problems.at_time(cluster, "2026-11-29T11:54:59Z", "cluster-policy", id) == nullptr);
  const problem* p = problems.at_time(cluster, "2026-11-29T11:55:00Z", "cluster-policy", id);
  REQUIRE(p != nullptr);
  CHECK(p->since == at("2026-11-29T11:45:00Z"));

  // While pods cannot be read, the first sighting it is.
  cluster.store.set_completeness(core::pod_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  judge blind;
  CHECK(blind.at_time(cluster, "2026-11-29T12:00:00Z", "cluster-policy", id) == nullptr);
}

TEST_CASE("before v23.9 the policy the operator acts on is the one it wrote a state to, whatever its age",
          "[gpu-operator][problems]") {
  // v23.6 acts on the first policy it reconciles after it starts (controllers/
  // clusterpolicy_controller.go:102-107 at v23.6.2) and writes no state to the others (SetStatus
  // there is never saved); only v26.x picks the oldest (clusterpolicy_controller.go:120-131).
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: older, uid: uid-older, creationTimestamp: "2025-01-01T08:00:00Z"}
spec: {}
---
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: newer, uid: uid-newer, creationTimestamp: "2025-02-01T08:00:00Z"}
spec: {}
status: {state: ready, namespace: gpu-operator}
)");
  testing::mark_complete(cluster);
  json older = testing::view_of(cluster, cluster_policy_kind, "", "older");
  CHECK(older["duplicate"] == true);
  CHECK(older["actedOn"] == "newer");
  CHECK(older["state"]["reason"] == "Ignored");
  CHECK(testing::view_of(cluster, cluster_policy_kind, "", "newer")["state"]["label"] == "Ready");
  judge problems;
  CHECK(problems.at_time(cluster, "2026-11-29T12:30:00Z", "older", "not-ready") == nullptr);
}

TEST_CASE("an operator before v23.9 is expected to deploy what v23.6 deployed", "[gpu-operator]") {
  // A policy with a state and no conditions was written by an operator before v23.9. v23.6 knew
  // no sandbox modes and still deployed the Kata manager when enabled
  // (controllers/state_manager.go:987-1000 at v23.6.2); the MPS control daemon came in v24.3
  // (assets/state-mps-control-daemon).
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: old-policy, uid: uid-old, creationTimestamp: "2025-03-01T08:00:00Z"}
spec:
  sandboxWorkloads: {enabled: true, defaultWorkload: vm-passthrough}
  kataManager: {enabled: true}
  ccManager: {enabled: true}
status: {state: ready, namespace: gpu-operator}
---
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: new-policy, uid: uid-new, creationTimestamp: "2025-03-01T08:00:00Z"}
spec: {}
status:
  state: ready
  namespace: other-operator
  conditions:
  - {type: Ready, status: "True", reason: Reconciled, message: ClusterPolicy is ready as all resources have been successfully reconciled, lastTransitionTime: "2026-11-28T08:10:00Z"}
)");
  testing::mark_complete(cluster);
  json old_view = testing::view_of(cluster, cluster_policy_kind, "", "old-policy");
  CHECK(component_row(old_view, "MPS control daemon")["expected"] == false);
  CHECK_THAT(component_row(old_view, "MPS control daemon")["expectedBecause"].get<std::string>(),
             Catch::Contains("came in v24.3"));
  CHECK(component_row(old_view, "MPS control daemon")["status"] == "not expected");
  CHECK(component_row(old_view, "device plugin")["expected"] == true);
  CHECK(component_row(old_view, "Kata manager")["expected"] == true);
  CHECK(component_row(old_view, "confidential computing manager")["expected"] == true);
  CHECK(component_row(old_view, "Kata sandbox device plugin")["expected"] == false);
  // With conditions the operator is v23.9 or later: expected, and the words say which releases lack it.
  json new_view = testing::view_of(cluster, cluster_policy_kind, "", "new-policy");
  CHECK(component_row(new_view, "MPS control daemon")["expected"] == true);
  CHECK(component_row(new_view, "MPS control daemon")["status"] ==
        "expected but not found (operators before v24.3 do not deploy it)");
}
