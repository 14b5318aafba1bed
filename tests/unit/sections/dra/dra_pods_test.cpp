// What DRA adds to Pod details: the pod's claims, resolved through resourceClaimStatuses, and
// the DRA reasons a pod waits, from the scheduler's words or, when it wrote none, the objects.
#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream;

namespace {

const json& claim_named(const json& view, const std::string& name) {
  for (const json& entry : view["claims"]) {
    if (entry["name"] == name) {
      return entry;
    }
  }
  FAIL("no pod claim " << name);
  static const json none;
  return none;
}

const char* nvidia_gpu_class = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors: [{cel: {expression: "device.driver == 'gpu.nvidia.com'"}}]
)";

}  // namespace

TEST_CASE("a pod's template claims are resolved through resourceClaimStatuses, never by name", "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/two-gpu-pod.yaml"));
  cluster.load_yaml(nvidia_gpu_class);
  // The pod as the API server shows it once the controller made gpu0's claim but not gpu1's.
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: gpu-pod, namespace: gpu-test7, uid: pod-uid-1}
spec:
  containers:
  - {name: ctr0, image: ubuntu, resources: {claims: [{name: gpu0}]}}
  - {name: ctr1, image: ubuntu, resources: {claims: [{name: gpu1}]}}
  resourceClaims:
  - {name: gpu0, resourceClaimTemplateName: single-gpu}
  - {name: gpu1, resourceClaimTemplateName: single-gpu}
status:
  phase: Pending
  resourceClaimStatuses:
  - {name: gpu0, resourceClaimName: gpu-pod-gpu0-q8zcn}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: gpu-pod-gpu0-q8zcn
  namespace: gpu-test7
  annotations: {resource.kubernetes.io/pod-claim-name: gpu0}
  ownerReferences: [{apiVersion: v1, kind: Pod, name: gpu-pod, uid: pod-uid-1, controller: true}]
spec:
  devices:
    requests: [{name: gpu, deviceClassName: gpu.nvidia.com}]
---
# Named as the controller would name gpu1's claim, but not recorded in the pod's status.
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: gpu-pod-gpu1-abcde
  namespace: gpu-test7
  ownerReferences: [{apiVersion: v1, kind: Pod, name: gpu-pod, uid: pod-uid-1, controller: true}]
spec:
  devices:
    requests: [{name: gpu, deviceClassName: gpu.nvidia.com}]
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, core::pod_kind, "gpu-test7", "gpu-pod");
  REQUIRE(view["claims"].size() == 2);
  const json& gpu0 = claim_named(view, "gpu0");
  CHECK(gpu0["source"] == "template");
  CHECK(gpu0["templateName"] == "single-gpu");
  CHECK(gpu0["claimName"] == "gpu-pod-gpu0-q8zcn");
  CHECK(gpu0["state"] == "Pending");
  CHECK(gpu0["path"] == "/api/v1/dra/resourceclaims/gpu-test7/gpu-pod-gpu0-q8zcn");
  CHECK(gpu0["usedBy"] == json::array({json{{"container", "ctr0"}, {"request", nullptr}}}));
  const json& gpu1 = claim_named(view, "gpu1");
  CHECK(gpu1["claimName"].is_null());
  CHECK(gpu1["state"] == "Not created yet");
  CHECK(gpu1["path"].is_null());
  CHECK(testing::link_with(view, "resourceClaim", "gpu-pod-gpu0-q8zcn") != nullptr);
  CHECK(testing::link_with(view, "resourceClaim", "gpu-pod-gpu1-abcde") == nullptr);
  CHECK(testing::link_with(view, "resourceClaimTemplate", "single-gpu") != nullptr);

  // The scheduler wrote nothing (it writes no condition for a claim not created yet): the
  // objects say why the pod waits.
  REQUIRE(view["waiting"].is_object());
  CHECK(view["waiting"]["message"].is_null());
  CHECK(testing::reason_ids(view) == std::vector<std::string>{"claim-not-created"});
  CHECK(view["waiting"]["reasons"][0]["source"] == "objects");
  CHECK_THAT(view["waiting"]["reasons"][0]["text"].get<std::string>(),
             Catch::Contains("gpu1") && Catch::Contains("single-gpu"));
  CHECK(testing::has_note_containing(view, "scheduler wrote no DRA reason"));
}

TEST_CASE("direct claims: found, missing, cannot tell, and a generated claim that is not the pod's", "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/shared-claim.yaml"));
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: orphan, namespace: basic-shared-claim-across-pods, uid: o1}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: gpu, request: gpu}]}}]
  resourceClaims:
  - {name: gpu, resourceClaimName: deleted-claim}
  - {name: stolen, resourceClaimTemplateName: any}
  - {name: broken}
status:
  phase: Pending
  resourceClaimStatuses:
  - {name: stolen, resourceClaimName: someone-elses}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: someone-elses
  namespace: basic-shared-claim-across-pods
  ownerReferences: [{apiVersion: v1, kind: Pod, name: other, uid: other-uid, controller: true}]
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
)");
  testing::mark_complete(cluster);

  json pod0 = testing::view_of(cluster, core::pod_kind, "basic-shared-claim-across-pods", "pod0");
  const json& shared = claim_named(pod0, "shared-gpu");
  CHECK(shared["source"] == "direct");
  CHECK(shared["claimName"] == "single-gpu");
  CHECK(shared["state"] == "Pending");
  CHECK(shared["reservedForPod"] == false);

  json orphan = testing::view_of(cluster, core::pod_kind, "basic-shared-claim-across-pods", "orphan");
  CHECK(claim_named(orphan, "gpu")["state"] == "Not found");
  CHECK(claim_named(orphan, "gpu")["usedBy"][0]["request"] == "gpu");
  CHECK(claim_named(orphan, "stolen")["state"] == "Not created for this pod");
  CHECK(claim_named(orphan, "broken")["state"] == "Invalid");
  CHECK(claim_named(orphan, "broken")["source"].is_null());
  auto ids = testing::reason_ids(orphan);
  CHECK(ids == std::vector<std::string>{"claim-not-found", "claim-not-owned", "claim-source-missing"});

  cluster.store.set_completeness(dra::claim_kind, {list_completeness::state::unreadable, "forbidden"});
  json unsure = testing::view_of(cluster, core::pod_kind, "basic-shared-claim-across-pods", "orphan");
  CHECK(claim_named(unsure, "gpu")["state"] == "cannot tell");
}

TEST_CASE("an unschedulable pod's waiting block gets the scheduler's DRA reasons", "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_yaml(nvidia_gpu_class);
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: trainer-0, namespace: ml, uid: p1}
spec:
  containers: [{name: main, image: x, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: big-gpu}]
status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    lastTransitionTime: "2026-11-29T11:00:00Z"
    message: "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: big-gpu, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: 8}}]}}
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, core::pod_kind, "ml", "trainer-0");
  // Core made the block with the scheduler's message; DRA named its part.
  REQUIRE(view["waiting"].is_object());
  CHECK_THAT(view["waiting"]["message"].get<std::string>(), Catch::StartsWith("0/2 nodes are available"));
  CHECK(view["waiting"]["since"] == "2026-11-29T11:00:00Z");
  REQUIRE(view["waiting"]["reasons"].size() == 1);
  const json& reason = view["waiting"]["reasons"][0];
  CHECK(reason["id"] == "cannot-allocate");
  CHECK(reason["nodes"] == 1);
  CHECK(reason["source"] == "scheduler");
  CHECK(reason["fragment"] == "1 cannot allocate all claims");
  CHECK_FALSE(testing::has_note_containing(view, "scheduler wrote no DRA reason"));
  CHECK(claim_named(view, "gpu")["state"] == "Pending");
}

TEST_CASE("binding failures and timeouts come as SchedulerError and still get a waiting block", "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: pod0, namespace: binding-conditions, uid: p0}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
status:
  phase: Pending
  resourceClaimStatuses: [{name: gpu, resourceClaimName: pod0-gpu-x1}]
  conditions:
  - type: PodScheduled
    status: "False"
    reason: SchedulerError
    lastTransitionTime: "2026-11-29T11:30:00Z"
    message: 'running PreBind plugin "DynamicResources": device binding timeout: claim=pod0-gpu-x1'
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: pod0-gpu-x1
  namespace: binding-conditions
  ownerReferences: [{apiVersion: v1, kind: Pod, name: pod0, uid: p0, controller: true}]
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, core::pod_kind, "binding-conditions", "pod0");
  REQUIRE(view["waiting"].is_object());
  CHECK(view["waiting"]["since"] == "2026-11-29T11:30:00Z");
  CHECK(testing::reason_ids(view) == std::vector<std::string>{"binding-timeout"});
  CHECK(view["waiting"]["reasons"][0]["claim"] == "pod0-gpu-x1");
}

TEST_CASE("gated, scheduled and claim-less pods get no DRA waiting reasons", "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: ml}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
status:
  phase: Pending
  conditions: [{type: PodScheduled, status: "False", reason: SchedulingGated, message: Scheduling is blocked due to non-empty scheduling gates}]
---
apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: ml}
spec: {containers: [{name: c, image: x}]}
status:
  phase: Pending
  conditions: [{type: PodScheduled, status: "False", reason: Unschedulable, message: "0/3 nodes are available: 3 Insufficient cpu."}]
)");
  testing::mark_complete(cluster);
  json gated = testing::view_of(cluster, core::pod_kind, "ml", "gated");
  CHECK(gated["waiting"]["schedulingGates"] == json::array({"example.com/quota"}));
  CHECK(gated["waiting"]["reasons"].empty());
  CHECK(claim_named(gated, "gpu")["state"] == "Not created yet");

  json plain = testing::view_of(cluster, core::pod_kind, "ml", "plain");
  CHECK_FALSE(plain.contains("claims"));
  CHECK(plain["waiting"]["reasons"].empty());
}

TEST_CASE("a claim the objects show deleted or asking for a missing class is named when the scheduler said nothing",
          "[dra][pods]") {
  fixture_cluster cluster;
  cluster.load_yaml(nvidia_gpu_class);
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: waits, namespace: ml, uid: w1}
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - {name: a, resourceClaimName: leaving}
  - {name: b, resourceClaimName: wrong-class}
status: {phase: Pending}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: leaving, namespace: ml, deletionTimestamp: "2026-11-29T11:50:00Z"}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: wrong-class, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.typo.com}}]}}
)");
  testing::mark_complete(cluster);
  json view = testing::view_of(cluster, core::pod_kind, "ml", "waits");
  CHECK(testing::reason_ids(view) == std::vector<std::string>{"claim-deleting", "device-class-missing"});
  CHECK(view["waiting"]["reasons"][1]["deviceClass"] == "gpu.typo.com");
  CHECK(claim_named(view, "a")["state"] == "Deleting");
}
