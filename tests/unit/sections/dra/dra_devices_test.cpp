// The Devices page and the devices on Node details: every device of the newest generation of
// each pool, from at most 500 slices, and which claim holds it ("cannot tell", never free, when
// the claim list is not complete).
#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream;

namespace {

const char* worker = "dra-example-driver-cluster-worker";

const json* row_for(const computed_list& list, const std::string& pool, const std::string& device) {
  for (const json& row : list.items) {
    if (row["pool"] == pool && row["device"] == device) {
      return &row;
    }
  }
  return nullptr;
}

std::string holder_claims() {
  return std::string(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: holder, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: )") +
         worker + R"(, device: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: sharer, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: )" +
         worker + R"(, device: gpu-0, shareID: "2"}]
)";
}

std::string slice(const std::string& name, const std::string& pool, int generation, int count, const std::string& node,
                  const std::string& devices) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
         "}\nspec:\n  driver: gpu.example.com\n  nodeName: " + node + "\n  pool: {name: " + pool +
         ", generation: " + std::to_string(generation) + ", resourceSliceCount: " + std::to_string(count) +
         "}\n  devices:\n" + devices + "\n";
}

}  // namespace

TEST_CASE("the Devices page lists every device with the claim that holds it", "[dra][devices]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/worker-slice-list.yaml"));
  cluster.load_yaml(holder_claims());
  testing::mark_complete(cluster);
  computed_list list = dra::list_devices(cluster.context());
  CHECK_FALSE(list.incomplete);
  REQUIRE(list.items.size() == 8);
  const json* held = row_for(list, worker, "gpu-0");
  REQUIRE(held != nullptr);
  CHECK((*held)["driver"] == "gpu.example.com");
  CHECK((*held)["node"] == worker);
  CHECK((*held)["attributes"]["model"] == "LATEST-GPU-MODEL");
  CHECK((*held)["attributes"]["index"] == 0);
  CHECK((*held)["capacity"]["memory"] == "80Gi");
  CHECK((*held)["allocatedTo"] ==
        json{{"namespace", "ml"}, {"name", "holder"}, {"path", "/api/v1/dra/resourceclaims/ml/holder"}});
  // A shared device held by a second claim names it too.
  REQUIRE((*held)["alsoAllocatedTo"].size() == 1);
  CHECK((*held)["alsoAllocatedTo"][0]["name"] == "sharer");
  const json* free_device = row_for(list, worker, "gpu-5");
  REQUIRE(free_device != nullptr);
  CHECK((*free_device)["allocatedTo"].is_null());
  CHECK((*free_device)["poolComplete"] == true);
  CHECK((*free_device)["slice"]["path"] ==
        "/api/v1/dra/resourceslices/dra-example-driver-cluster-worker-gpu.example.com-rf2f7");
}

TEST_CASE("when the claim list is cut or unreadable, a device no claim is seen holding is 'cannot tell'",
          "[dra][devices]") {
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/worker-slice-list.yaml"));
  cluster.load_yaml(holder_claims());
  testing::mark_complete(cluster);
  for (auto state : {list_completeness::state::truncated, list_completeness::state::unreadable,
                     list_completeness::state::not_synced}) {
    cluster.store.set_completeness(dra::claim_kind, {state, "some reason"});
    computed_list list = dra::list_devices(cluster.context());
    CHECK((*row_for(list, worker, "gpu-0"))["allocatedTo"]["name"] == "holder");
    CHECK((*row_for(list, worker, "gpu-1"))["allocatedTo"] == "cannot tell");
    for (const json& row : list.items) {
      CHECK_FALSE(row["allocatedTo"].is_null());
    }
  }
}

TEST_CASE("the Devices page reads at most 500 slices and says when it cut", "[dra][devices]") {
  fixture_cluster cluster;
  std::string yaml;
  for (int i = 0; i < 501; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "slice-%03d", i);
    yaml += slice(name, std::string("pool-") + name, 1, 1, "node-" + std::to_string(i),
                  "  - name: gpu-0\n    capacity: {memory: {value: 40Gi}}") +
            "---\n";
  }
  cluster.load_yaml(yaml);
  testing::mark_complete(cluster);
  computed_list list = dra::list_devices(cluster.context());
  CHECK(list.incomplete);
  CHECK(list.incomplete_reason == "cut at 500 Resource Slices");
  CHECK(list.items.size() == 500);
  CHECK(row_for(list, "pool-slice-500", "gpu-0") == nullptr);
  CHECK(row_for(list, "pool-slice-499", "gpu-0") != nullptr);

  // The watch cut the list itself: its reason is given.
  fixture_cluster watched;
  watched.load_yaml(slice("only", "p", 1, 1, "n", "  - name: gpu-0"));
  testing::mark_complete(watched);
  watched.store.set_completeness(dra::slice_kind, {list_completeness::state::truncated, "cut at 500 ResourceSlices"});
  computed_list cut = dra::list_devices(watched.context());
  CHECK(cut.incomplete);
  CHECK(cut.incomplete_reason == "cut at 500 ResourceSlices");
}

TEST_CASE("only the newest generation of a pool counts; a pool missing slices is incomplete", "[dra][devices]") {
  fixture_cluster cluster;
  cluster.load_yaml(slice("old", "gpu-node-1", 1, 1, "gpu-node-1", "  - name: gpu-old") + "---\n" +
                    slice("new-a", "gpu-node-1", 2, 2, "gpu-node-1", "  - name: gpu-0\n  - name: gpu-1") + "---\n" +
                    slice("other", "gpu-node-2", 3, 1, "gpu-node-2", "  - name: gpu-0"));
  testing::mark_complete(cluster);
  computed_list list = dra::list_devices(cluster.context());
  REQUIRE(list.items.size() == 3);
  CHECK(row_for(list, "gpu-node-1", "gpu-old") == nullptr);
  CHECK((*row_for(list, "gpu-node-1", "gpu-0"))["poolComplete"] == false);
  CHECK((*row_for(list, "gpu-node-1", "gpu-0"))["poolGeneration"] == 2);
  CHECK((*row_for(list, "gpu-node-2", "gpu-0"))["poolComplete"] == true);

  auto old_state = testing::state_of(cluster, dra::slice_kind, "", "old");
  CHECK(old_state.label == "Outdated");
  CHECK_THAT(old_state.message, Catch::Contains("generation 2"));
  json old_view = testing::view_of(cluster, dra::slice_kind, "", "old");
  CHECK(old_view["poolStatus"]["current"] == false);
  CHECK(testing::has_note_containing(old_view, "older generation"));
  CHECK(testing::state_of(cluster, dra::slice_kind, "", "new-a").label == "Incomplete pool");
  json incomplete = testing::view_of(cluster, dra::slice_kind, "", "new-a");
  CHECK(incomplete["poolStatus"]["slicesOfNewestGeneration"] == 1);
  CHECK(testing::has_note_containing(incomplete, "1 of 2 slices"));
  CHECK(testing::state_of(cluster, dra::slice_kind, "", "other").label == "Current");
}

TEST_CASE("a node's details list the devices its drivers publish for it", "[dra][devices]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Node
metadata: {name: gpu-node-1, labels: {nvidia.com/gpu.present: "true"}}
status: {conditions: [{type: Ready, status: "True"}]}
---
apiVersion: v1
kind: Node
metadata: {name: cpu-node}
status: {conditions: [{type: Ready, status: "True"}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-node-1-gpus}
spec:
  driver: gpu.nvidia.com
  nodeName: gpu-node-1
  pool: {name: gpu-node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, attributes: {type: {string: gpu}}, capacity: {memory: {value: 80Gi}}}
---
# Devices that choose their node one by one.
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: nic.example.com
  perDeviceNodeSelection: true
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: port-1, nodeName: gpu-node-1}
  - {name: port-2, nodeName: gpu-node-2}
  - {name: shared, allNodes: true}
)");
  testing::mark_complete(cluster);
  json node = testing::view_of(cluster, core::node_kind, "", "gpu-node-1");
  REQUIRE(node["draDevices"].size() == 2);
  CHECK(node["draDevices"][0]["device"] == "gpu-0");
  CHECK(node["draDevices"][0]["capacity"]["memory"] == "80Gi");
  CHECK(node["draDevices"][1]["device"] == "port-1");
  CHECK(node["draDevices"][1]["driver"] == "nic.example.com");
  CHECK(testing::link_with(node, "resourceSlice", "gpu-node-1-gpus") != nullptr);
  json other = testing::view_of(cluster, core::node_kind, "", "cpu-node");
  CHECK(other["draDevices"].empty());
  // The all-nodes device is on the Devices page, pinned to no node.
  computed_list list = dra::list_devices(cluster.context());
  const json* shared = row_for(list, "fabric", "shared");
  REQUIRE(shared != nullptr);
  CHECK((*shared)["node"].is_null());
  CHECK((*shared)["allNodes"] == true);
}

TEST_CASE("a claim with admin access is marked as such on a device, never as its holder", "[dra][devices]") {
  // The scheduler does not count an admin-access result as an allocation: the device stays
  // free for others (kubernetes v1.37.2 pkg/scheduler/framework/plugins/dynamicresources/
  // allocateddevices.go:55). Kubernetes 1.31 (v1alpha3) wrote adminAccess on the request only.
  fixture_cluster cluster;
  cluster.load_file(upstream("dra/worker-slice-list.yaml"));
  cluster.load_yaml(std::string(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: monitor, namespace: ops}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, adminAccess: true}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: )") +
                    worker + R"(, device: gpu-1, adminAccess: true}]
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: old-monitor, namespace: ops}
spec: {devices: {requests: [{name: gpu, deviceClassName: gpu.example.com, adminAccess: true}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: )" +
                    worker + R"(, device: gpu-0}]
---
)" + holder_claims());
  testing::mark_complete(cluster);
  computed_list list = dra::list_devices(cluster.context());
  const json* watched = row_for(list, worker, "gpu-1");
  REQUIRE(watched != nullptr);
  CHECK((*watched)["allocatedTo"].is_null());
  CHECK((*watched)["alsoAllocatedTo"].empty());
  REQUIRE((*watched)["adminAccessBy"].size() == 1);
  CHECK((*watched)["adminAccessBy"][0]["name"] == "monitor");
  const json* held = row_for(list, worker, "gpu-0");
  REQUIRE(held != nullptr);
  CHECK((*held)["allocatedTo"]["name"] == "holder");
  CHECK((*held)["alsoAllocatedTo"].size() == 1);
  REQUIRE((*held)["adminAccessBy"].size() == 1);
  CHECK((*held)["adminAccessBy"][0]["name"] == "old-monitor");
  const json* free_device = row_for(list, worker, "gpu-5");
  REQUIRE(free_device != nullptr);
  CHECK((*free_device)["adminAccessBy"].empty());

  // The claim's own details say the same.
  json monitor = testing::view_of(cluster, dra::claim_kind, "ops", "old-monitor");
  CHECK(monitor["allocation"]["devices"][0]["adminAccess"] == true);
}
