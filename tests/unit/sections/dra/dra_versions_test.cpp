// Every kind in every version of resource.k8s.io, read by its fields: the same object written
// in v1alpha3, v1beta1, v1beta2 and v1 gives the same view.
#include <catch2/catch.hpp>

#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"
#include "support/upstream_files.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream;
using sextant::testing::upstream_files;

namespace {

// One GPU claim with a CEL selector, allocated on gpu-node-1, in the shape of each version.
// v1alpha3 and v1beta1 keep the request's fields on the request; v1beta2 and v1 under `exactly`.
const char* claims_in_every_version = R"(
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: gpu, namespace: v1alpha3, uid: c-a3}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      allocationMode: ExactCount
      count: 2
      selectors:
      - cel: {expression: "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-0}
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-1}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1]}]
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: gpu, namespace: v1beta1, uid: c-b1}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      allocationMode: ExactCount
      count: 2
      selectors:
      - cel: {expression: "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-0}
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-1}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1]}]
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: gpu, namespace: v1beta2, uid: c-b2}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        allocationMode: ExactCount
        count: 2
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-0}
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-1}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1]}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu, namespace: v1, uid: c-1}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        allocationMode: ExactCount
        count: 2
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-0}
      - {request: gpu, driver: gpu.example.com, pool: gpu-node-1, device: gpu-1}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-1]}]
)";

// One slice per version: v1alpha3 `basic` with bare quantities, v1beta1 `basic` with {value},
// v1beta2 and v1 flattened with {value}. Each is its own pool so all four are current.
std::string slice_yaml(const std::string& version, const std::string& device_body) {
  return "apiVersion: resource.k8s.io/" + version + R"(
kind: ResourceSlice
metadata: {name: slice-)" +
         version + R"(}
spec:
  driver: gpu.example.com
  nodeName: gpu-node-1
  pool: {name: pool-)" +
         version + R"(, generation: 1, resourceSliceCount: 1}
  devices:
)" + device_body +
         "\n";
}

const char* basic_bare = R"(  - name: gpu-0
    basic:
      attributes:
        model: {string: LATEST-GPU-MODEL}
        index: {int: 0}
        driverVersion: {version: 1.0.0}
      capacity:
        memory: 80Gi)";
const char* basic_value = R"(  - name: gpu-0
    basic:
      attributes:
        model: {string: LATEST-GPU-MODEL}
        index: {int: 0}
        driverVersion: {version: 1.0.0}
      capacity:
        memory: {value: 80Gi})";
const char* flattened = R"(  - name: gpu-0
    attributes:
      model: {string: LATEST-GPU-MODEL}
      index: {int: 0}
      driverVersion: {version: 1.0.0}
    capacity:
      memory: {value: 80Gi})";

const char* templates_and_classes_in_every_version = R"(
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: v1alpha3}
spec:
  spec:
    devices:
      requests:
      - {name: gpu, deviceClassName: gpu.example.com, count: 2}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: v1beta1}
spec:
  spec:
    devices:
      requests:
      - {name: gpu, deviceClassName: gpu.example.com, count: 2}
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: v1beta2}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com, count: 2}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: v1}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com, count: 2}
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: class-v1alpha3}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: class-v1beta1}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceClass
metadata: {name: class-v1beta2}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: class-v1}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
)";

const std::vector<std::string> versions = {"v1alpha3", "v1beta1", "v1beta2", "v1"};

}  // namespace

TEST_CASE("a claim reads the same in v1alpha3, v1beta1, v1beta2 and v1", "[dra][versions]") {
  fixture_cluster cluster;
  cluster.load_yaml(claims_in_every_version);
  testing::mark_complete(cluster);
  json reference = testing::view_of(cluster, dra::claim_kind, "v1", "gpu");
  REQUIRE(reference["requests"].size() == 1);
  const json& request = reference["requests"][0];
  CHECK(request["name"] == "gpu");
  CHECK(request["deviceClassName"] == "gpu.example.com");
  CHECK(request["allocationMode"] == "ExactCount");
  CHECK(request["count"] == 2);
  CHECK(request["selectors"] == json::array({"device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"}));
  CHECK(request["firstAvailable"].empty());
  CHECK(request["text"] == "2 devices of class gpu.example.com");
  CHECK(reference["allocation"]["node"] == "gpu-node-1");
  CHECK(reference["allocation"]["devices"].size() == 2);
  CHECK(reference["state"]["label"] == "Allocated");
  for (const std::string& version : versions) {
    INFO("version " << version);
    json view = testing::view_of(cluster, dra::claim_kind, version, "gpu");
    CHECK(view["requests"] == reference["requests"]);
    CHECK(view["allocation"] == reference["allocation"]);
    CHECK(view["state"] == reference["state"]);
    CHECK(testing::has_note_containing(view, "does not evaluate"));
  }
}

TEST_CASE("a slice's devices read the same in every version", "[dra][versions]") {
  fixture_cluster cluster;
  cluster.load_yaml(slice_yaml("v1alpha3", basic_bare) + "---\n" + slice_yaml("v1beta1", basic_value) + "---\n" +
                    slice_yaml("v1beta2", flattened) + "---\n" + slice_yaml("v1", flattened));
  testing::mark_complete(cluster);
  computed_list devices = dra::list_devices(cluster.context());
  REQUIRE(devices.items.size() == 4);
  for (const json& row : devices.items) {
    INFO(row.dump());
    CHECK(row["device"] == "gpu-0");
    CHECK(row["driver"] == "gpu.example.com");
    CHECK(row["node"] == "gpu-node-1");
    CHECK(row["attributes"] == json{{"model", "LATEST-GPU-MODEL"}, {"index", 0}, {"driverVersion", "1.0.0"}});
    CHECK(row["capacity"] == json{{"memory", "80Gi"}});
    CHECK(row["allocatedTo"].is_null());
  }
  for (const std::string& version : versions) {
    INFO("version " << version);
    json view = testing::view_of(cluster, dra::slice_kind, "", "slice-" + version);
    CHECK(view["state"]["label"] == "Current");
    CHECK(view["deviceCount"] == 1);
    CHECK(view["devices"][0]["capacity"]["memory"] == "80Gi");
    CHECK(view["notes"].empty());
  }
}

TEST_CASE("templates and device classes read the same in every version", "[dra][versions]") {
  fixture_cluster cluster;
  cluster.load_yaml(templates_and_classes_in_every_version);
  testing::mark_complete(cluster);
  json reference = testing::view_of(cluster, dra::template_kind, "v1", "two-gpus");
  CHECK(reference["requests"][0]["text"] == "2 devices of class gpu.example.com");
  CHECK(reference["deviceClasses"] == json::array({"gpu.example.com"}));
  for (const std::string& version : versions) {
    INFO("version " << version);
    json view = testing::view_of(cluster, dra::template_kind, version, "two-gpus");
    CHECK(view["requests"] == reference["requests"]);
    CHECK(view["state"]["label"] == "Defined");
    json device_class = testing::view_of(cluster, dra::device_class_kind, "", "class-" + version);
    CHECK(device_class["selectors"] == json::array({"device.driver == 'gpu.example.com'"}));
    CHECK(device_class["implicitExtendedResourceName"] == "deviceclass.resource.kubernetes.io/class-" + version);
    CHECK(testing::has_note_containing(device_class, "does not evaluate"));
  }
}

TEST_CASE("the kubernetes/api round-trip fixtures of v1, v1beta2 and v1beta1 read every field", "[dra][versions]") {
  for (const std::string version : {"v1", "v1beta2", "v1beta1"}) {
    INFO("version " << version);
    fixture_cluster cluster;
    for (const std::string kind : {"ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "ResourceSlice"}) {
      cluster.load_file(upstream_files("testdata/k8s-api-resource") /
                        ("resource.k8s.io." + version + "." + kind + ".yaml"));
    }
    testing::mark_complete(cluster);

    json claim = testing::view_of(cluster, dra::claim_kind, "namespaceValue", "nameValue");
    // The fixture sets deletionTimestamp: Deleting wins over everything.
    CHECK(claim["state"]["label"] == "Deleting");
    REQUIRE(claim["requests"].size() == 1);
    const json& request = claim["requests"][0];
    CHECK(request["deviceClassName"] == "deviceClassNameValue");
    CHECK(request["selectors"] == json::array({"expressionValue"}));
    CHECK(request["capacity"] == json{{"requestsKey", "0"}});
    CHECK(request["tolerations"].size() == 1);
    REQUIRE(request["firstAvailable"].size() == 1);
    CHECK(request["firstAvailable"][0]["request"] == "nameValue/nameValue");
    CHECK(request["firstAvailable"][0]["count"] == 5);
    CHECK(claim["constraints"][0]["matchAttribute"] == "matchAttributeValue");
    CHECK(claim["config"][0]["driver"] == "driverValue");
    CHECK(json::parse(claim["config"][0]["parameters"].get<std::string>())["kind"] == "CustomType");
    const json& device = claim["allocation"]["devices"][0];
    CHECK(device["request"] == "requestValue");
    CHECK(device["driver"] == "driverValue");
    CHECK(device["pool"] == "poolValue");
    CHECK(device["device"] == "deviceValue");
    CHECK(device["shareID"] == "shareIDValue");
    CHECK(device["bindingFailureConditions"] == json::array({"bindingFailureConditionsValue"}));
    CHECK(device["conditions"][0]["type"] == "typeValue");
    // Not metadata.name In [one node]: shown as text.
    CHECK(claim["allocation"]["node"].is_null());
    CHECK(claim["allocation"]["nodeSelector"] ==
          "keyValue operatorValue (valuesValue) and keyValue operatorValue (valuesValue)");
    CHECK(claim["consumers"][0]["name"] == "nameValue");
    CHECK(claim["allocation"]["config"][0]["source"] == "sourceValue");

    json claim_template = testing::view_of(cluster, dra::template_kind, "namespaceValue", "nameValue");
    CHECK(claim_template["requests"][0]["deviceClassName"] == "deviceClassNameValue");
    CHECK(claim_template["claimMetadata"]["labels"] == json{{"labelsKey", "labelsValue"}});

    // The round-trip fixtures set a namespace even on cluster-scoped kinds; the store keeps it.
    json device_class = testing::view_of(cluster, dra::device_class_kind, "namespaceValue", "nameValue");
    CHECK(device_class["selectors"] == json::array({"expressionValue"}));
    CHECK(device_class["config"][0]["driver"] == "driverValue");

    json slice = testing::view_of(cluster, dra::slice_kind, "namespaceValue", "nameValue");
    CHECK(slice["driver"] == "driverValue");
    CHECK(slice["poolStatus"]["generation"] == 2);
    CHECK(slice["poolStatus"]["resourceSliceCount"] == 3);
    // One slice of three: the pool is incomplete.
    CHECK(slice["state"]["label"] == "Incomplete pool");
    REQUIRE(slice["devices"].size() == 1);
    const json& published = slice["devices"][0];
    CHECK(published["device"] == "nameValue");
    CHECK(published["attributes"]["attributesKey"] == "stringValue");
    CHECK(published["capacity"] == json{{"capacityKey", "0"}});
    CHECK(published["node"] == "nodeNameValue");
    CHECK(published["poolComplete"] == false);
  }
}

TEST_CASE("the claim profile caches what views read and drops the driver's opaque device data", "[dra][versions]") {
  fixture_cluster cluster;
  cluster.load_file(upstream_files("testdata/k8s-api-resource") / "resource.k8s.io.v1.ResourceClaim.yaml");
  object_ptr claim = cluster.get("resource.k8s.io", "ResourceClaim", "namespaceValue", "nameValue");
  REQUIRE(claim);
  const json& device = claim->body()["status"]["devices"][0];
  CHECK_FALSE(device.contains("data"));
  CHECK(device.contains("conditions"));
  CHECK(device["networkData"]["interfaceName"] == "interfaceNameValue");
  CHECK(claim->body()["status"].contains("allocation"));
  CHECK(claim->body()["status"].contains("reservedFor"));
  CHECK(claim->body()["spec"]["devices"].contains("config"));
  CHECK_FALSE(claim->body()["metadata"].contains("managedFields"));

  fixture_cluster slices;
  slices.load_file(upstream_files("testdata/k8s-api-resource") / "resource.k8s.io.v1.ResourceSlice.yaml");
  object_ptr slice = slices.get("resource.k8s.io", "ResourceSlice", "namespaceValue", "nameValue");
  REQUIRE(slice);
  const json& published = slice->body()["spec"]["devices"][0];
  CHECK(published.contains("attributes"));
  CHECK(published.contains("capacity"));
  CHECK(published.contains("taints"));
  // Counter consumption and node-allocatable mappings stay with the object's own YAML.
  CHECK_FALSE(published.contains("consumesCounters"));
  CHECK_FALSE(published.contains("nodeAllocatableResourceMappings"));
}
