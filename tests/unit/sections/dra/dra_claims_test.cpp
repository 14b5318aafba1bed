// Resource Claims: every state and its precedence, the allocation, consumers, requests as
// written (firstAvailable in order, CEL as text) and opaque configuration as JSON text.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "unit/sections/dra/dra_test_support.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream;

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The binding-conditions fixture is a bare `status:` block: give it an identity.
std::string binding_claim(const std::string& name, const std::string& status_text) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
         ", namespace: binding-conditions}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: "
         "{deviceClassName: gpu.example.com}\n" +
         status_text;
}

std::string excerpt() {
  return read_text(upstream("dra/claim-status-binding-conditions.yaml"));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

const char* allocated_claims = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: pinned, namespace: ml, uid: c1}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1]}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: zoned, namespace: ml, uid: c2}
spec:
  devices:
    requests:
    - name: nic
      exactly: {deviceClassName: nic.example.com}
status:
  allocation:
    devices:
      results:
      - {request: nic, driver: nic.example.com, pool: fabric, device: port-3}
    nodeSelector:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [zone-a, zone-b]}
        - {key: example.com/fabric, operator: Exists}
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1, gpu-node-2]}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: anywhere, namespace: ml, uid: c3}
spec:
  devices:
    requests:
    - name: license
      exactly: {deviceClassName: license.example.com}
status:
  allocation:
    devices:
      results:
      - {request: license, driver: license.example.com, pool: global, device: seat-1}
  reservedFor:
  - {resource: pods, name: trainer-0, uid: p1}
  - {resource: pods, name: gone-pod, uid: p-gone}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer-0, namespace: ml, uid: p1}
spec:
  nodeName: gpu-node-1
  containers: [{name: main, image: x}]
status: {phase: Running}
)";

}  // namespace

TEST_CASE("claim states: Pending, Allocated, In use, Binding failed, Deleting", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/shared-claim.yaml"));
  cluster.load_yaml(binding_claim("ready", excerpt()));
  cluster.load_yaml(
      binding_claim("failed", replaced(excerpt(), "type: BindingConditions", "type: BindingFailureConditions")));
  cluster.load_yaml(
      binding_claim("unreserved", replaced(excerpt(), "  reservedFor:\n  - name: pod0\n    resource: pods\n", "")));
  cluster.load_yaml(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: leaving
  namespace: binding-conditions
  deletionTimestamp: "2026-11-29T11:58:00Z"
  finalizers: [resource.kubernetes.io/delete-protection]
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: p, device: gpu-1, bindingFailureConditions: [Broken]}]
  devices:
  - {driver: gpu.example.com, pool: p, device: gpu-1, conditions: [{type: Broken, status: "True", reason: X}]}
  reservedFor: [{resource: pods, name: pod0}]
)");
  dra_test::mark_complete(cluster);

  auto pending = dra_test::state_of(cluster, dra::claim_kind, "basic-shared-claim-across-pods", "single-gpu");
  CHECK(pending.label == "Pending");
  CHECK_THAT(pending.message, Catch::Contains("Nothing is allocated"));

  // Binding conditions met and a pod reserved: In use.
  auto ready = dra_test::state_of(cluster, dra::claim_kind, "binding-conditions", "ready");
  CHECK(ready.label == "In use");
  CHECK_THAT(ready.message, Catch::Contains("pod pod0"));
  json ready_view = dra_test::view_of(cluster, dra::claim_kind, "binding-conditions", "ready");
  CHECK(ready_view["allocation"]["devices"][0]["binding"] == "ready");

  // The driver set the failure condition type to True: Binding failed wins over In use.
  auto failed = dra_test::state_of(cluster, dra::claim_kind, "binding-conditions", "failed");
  CHECK(failed.label == "Binding failed");
  CHECK(failed.reason == "Ready");
  CHECK_THAT(failed.message, Catch::Contains("BindingFailureConditions") &&
                                 Catch::Contains("gpu.example.com/dra-example-driver-cluster-worker/gpu-0") &&
                                 Catch::Contains("Device is ready"));
  json failed_view = dra_test::view_of(cluster, dra::claim_kind, "binding-conditions", "failed");
  CHECK(failed_view["allocation"]["devices"][0]["binding"] == "failed");

  auto unreserved = dra_test::state_of(cluster, dra::claim_kind, "binding-conditions", "unreserved");
  CHECK(unreserved.label == "Allocated");

  // Deleting wins over a binding failure and a reservation.
  auto leaving = dra_test::state_of(cluster, dra::claim_kind, "binding-conditions", "leaving");
  CHECK(leaving.label == "Deleting");
  CHECK_THAT(leaving.message, Catch::Contains("2026-11-29T11:58:00Z") && Catch::Contains("finalizer"));
}

TEST_CASE("a device still waiting for its binding conditions says so", "[dra][claims]") {
  fixture_cluster cluster;
  // Allocated with binding conditions, and no status from the driver yet.
  cluster.load_yaml(
      binding_claim("waiting", replaced(excerpt(), "  devices:\n  - conditions:", "  ignored:\n  - conditions:")));
  dra_test::mark_complete(cluster);
  json view = dra_test::view_of(cluster, dra::claim_kind, "binding-conditions", "waiting");
  CHECK(view["state"]["label"] == "In use");
  CHECK(view["allocation"]["devices"][0]["binding"] == "waiting");
  CHECK(view["allocation"]["devices"][0]["bindingConditions"] == json::array({"BindingConditions"}));
  CHECK(dra_test::has_note_containing(view, "waits for its driver to report BindingConditions"));
}

TEST_CASE("the allocation names the node when pinned to one, else shows the selector as text", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_yaml(allocated_claims);
  dra_test::mark_complete(cluster);

  json pinned = dra_test::view_of(cluster, dra::claim_kind, "ml", "pinned");
  CHECK(pinned["state"]["label"] == "Allocated");
  CHECK_THAT(pinned["state"]["message"].get<std::string>(), Catch::Contains("on node gpu-node-1"));
  CHECK(pinned["allocation"]["node"] == "gpu-node-1");
  CHECK(pinned["allocation"]["nodeSelector"].is_null());
  CHECK(pinned["node"] == "gpu-node-1");
  const json& device = pinned["allocation"]["devices"][0];
  CHECK(device["request"] == "gpu");
  CHECK(device["driver"] == "gpu.example.com");
  CHECK(device["pool"] == "gpu-node-1");
  CHECK(device["device"] == "gpu-0");
  CHECK(dra_test::link_with(pinned, "node", "gpu-node-1") != nullptr);
  CHECK(dra_test::link_with(pinned, "deviceClass", "gpu.example.com") != nullptr);

  json zoned = dra_test::view_of(cluster, dra::claim_kind, "ml", "zoned");
  CHECK(zoned["allocation"]["node"].is_null());
  CHECK(zoned["allocation"]["nodeSelector"] ==
        "topology.kubernetes.io/zone in (zone-a, zone-b) and example.com/fabric exists or "
        "metadata.name in (gpu-node-1, gpu-node-2)");

  json anywhere = dra_test::view_of(cluster, dra::claim_kind, "ml", "anywhere");
  CHECK(anywhere["allocation"]["node"].is_null());
  CHECK(anywhere["allocation"]["nodeSelector"].is_null());
  CHECK(anywhere["allocation"]["availableOnEveryNode"] == true);
}

TEST_CASE("consumers come from reservedFor as links, including a pod that no longer exists", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_yaml(allocated_claims);
  dra_test::mark_complete(cluster);
  json view = dra_test::view_of(cluster, dra::claim_kind, "ml", "anywhere");
  CHECK(view["state"]["label"] == "In use");
  REQUIRE(view["consumers"].size() == 2);
  const json& alive = view["consumers"][0];
  CHECK(alive["kind"] == "Pod");
  CHECK(alive["apiVersion"] == "v1");
  CHECK(alive["name"] == "trainer-0");
  CHECK(alive["namespace"] == "ml");
  CHECK(alive["path"] == "/api/v1/core/pods/ml/trainer-0");
  CHECK(alive["exists"] == true);
  const json& gone = view["consumers"][1];
  CHECK(gone["name"] == "gone-pod");
  CHECK(gone["exists"] == false);
  CHECK(dra_test::has_note_containing(view, "pod gone-pod, which no longer exists"));
  CHECK(dra_test::link_with(view, "consumer", "trainer-0") != nullptr);
  CHECK(dra_test::link_with(view, "consumer", "gone-pod") != nullptr);
  CHECK(view["consumerCount"] == 2);

  // When the pod list is not complete, a missing pod cannot be told gone.
  cluster.store.set_completeness(core::pod_kind, {list_completeness::state::unreadable, "forbidden"});
  json unsure = dra_test::view_of(cluster, dra::claim_kind, "ml", "anywhere");
  CHECK(unsure["consumers"][1]["exists"] == "cannot tell");
}

TEST_CASE("requests are shown as written: firstAvailable in order, CEL as text", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/prioritized-alternatives.yaml"));
  // The claim the controller made for pod0, allocated through the third alternative.
  cluster.load_yaml(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: pod0-gpu-x7k2p
  namespace: prioritized-alternatives
  annotations: {resource.kubernetes.io/pod-claim-name: gpu}
  ownerReferences: [{apiVersion: v1, kind: Pod, name: pod0, uid: p0, controller: true, blockOwnerDeletion: true}]
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - name: bleeding-edge-gpu
        deviceClassName: gpu.example.com
        selectors: [{cel: {expression: "device.attributes['gpu.example.com'].model == 'BLEEDING-EDGE-GPU'"}}]
      - name: huge-gpu
        deviceClassName: gpu.example.com
        selectors: [{cel: {expression: "device.capacity['gpu.example.com'].memory.compareTo(quantity('1Ti')) >= 0"}}]
      - {name: older-gpu, deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results: [{request: gpu/older-gpu, driver: gpu.example.com, pool: worker, device: gpu-3}]
)");
  dra_test::mark_complete(cluster);

  json claim_template = dra_test::view_of(cluster, dra::template_kind, "prioritized-alternatives", "prioritized-gpu");
  const json& request = claim_template["requests"][0];
  CHECK(request["name"] == "gpu");
  CHECK(request["deviceClassName"].is_null());
  REQUIRE(request["firstAvailable"].size() == 3);
  CHECK(request["firstAvailable"][0]["name"] == "bleeding-edge-gpu");
  CHECK(request["firstAvailable"][1]["name"] == "huge-gpu");
  CHECK(request["firstAvailable"][2]["name"] == "older-gpu");
  CHECK(request["firstAvailable"][0]["selectors"][0] ==
        "device.attributes['gpu.example.com'].model == 'BLEEDING-EDGE-GPU'");
  CHECK(request["firstAvailable"][2]["selectors"].empty());
  CHECK(request["firstAvailable"][1]["request"] == "gpu/huge-gpu");
  CHECK_THAT(
      request["text"].get<std::string>(),
      Catch::StartsWith("the first available of, in order: bleeding-edge-gpu: 1 device of class gpu.example.com"));
  CHECK(dra_test::has_note_containing(claim_template, "does not evaluate"));

  json claim = dra_test::view_of(cluster, dra::claim_kind, "prioritized-alternatives", "pod0-gpu-x7k2p");
  const json& device = claim["allocation"]["devices"][0];
  CHECK(device["request"] == "gpu/older-gpu");
  CHECK(device["mainRequest"] == "gpu");
  CHECK(device["subRequest"] == "older-gpu");
  CHECK(claim["generatedFor"]["pod"] == "pod0");
  CHECK(claim["generatedFor"]["podClaimName"] == "gpu");
  CHECK(dra_test::link_with(claim, "owner", "pod0") != nullptr);
}

TEST_CASE("opaque driver configuration is shown as JSON text", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/opaque-config.yaml"));
  dra_test::mark_complete(cluster);
  json view = dra_test::view_of(cluster, dra::template_kind, "basic-resourceclaim-opaque-config", "multiple-gpus");
  REQUIRE(view["config"].size() == 2);
  CHECK(view["config"][0]["requests"] == json::array({"ts-gpu"}));
  CHECK(view["config"][0]["driver"] == "gpu.example.com");
  REQUIRE(view["config"][0]["parameters"].is_string());
  json parameters = json::parse(view["config"][0]["parameters"].get<std::string>());
  CHECK(parameters["sharing"]["strategy"] == "TimeSlicing");
  CHECK(json::parse(view["config"][1]["parameters"]
                        .get<std::string>())["sharing"]["spacePartitioningConfig"]["partitionCount"] == 10);
  // The pod that uses the template is listed; its claim is not created yet.
  REQUIRE(view["pods"].size() == 1);
  CHECK(view["pods"][0]["name"] == "pod0");
  CHECK(view["pods"][0]["claimName"].is_null());
}

TEST_CASE("a device class shows its selectors, config and the claims that name it", "[dra][claims]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/mig-device-class.yaml"));
  cluster.load_file(upstream("dra/two-gpu-pod.yaml"));
  cluster.load_yaml(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: mig-claim, namespace: gpu-test7}
spec:
  devices:
    requests: [{name: mig, exactly: {deviceClassName: mig-1g-12gb.gpu.nvidia.com}}]
)");
  dra_test::mark_complete(cluster);
  json view = dra_test::view_of(cluster, dra::device_class_kind, "", "mig-1g-12gb.gpu.nvidia.com");
  CHECK(view["extendedResourceName"] == "nvidia.com/mig-1g.12gb");
  CHECK_THAT(view["selectors"][0].get<std::string>(), Catch::Contains("'1g.12gb'"));
  CHECK(view["usedByClaims"].size() == 1);
  CHECK(view["usedByClaims"][0]["name"] == "mig-claim");
  CHECK(view["usedByTemplates"].empty());
  CHECK(view["state"]["label"] == "Defined");
  CHECK(dra_test::has_note_containing(view, "does not evaluate"));
}
