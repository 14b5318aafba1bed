// Malformed objects (missing spec, wrong types) give a view of what can be read plus a note,
// never a crash.
#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

const char* malformed = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: no-spec, namespace: bad}
status:
  allocation: "yes"
  reservedFor: "pod0"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: wrong-types, namespace: bad}
spec:
  devices:
    requests:
    - 42
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        count: two
        selectors: {cel: "not a list"}
        capacity: {requests: [1, 2]}
        tolerations: "none"
      firstAvailable: "also wrong"
    config:
    - requests: [gpu]
status:
  allocation:
    devices:
      results: [7, {request: gpu, driver: gpu.example.com, pool: p, device: gpu-0, bindingConditions: "Ready"}]
    nodeSelector: {nodeSelectorTerms: "all"}
  devices: {driver: gpu.example.com}
  reservedFor: [3, {resource: pods}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: requests-not-list, namespace: bad}
spec: {devices: {requests: {name: gpu}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: empty, namespace: bad}
spec: {metadata: "labels"}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: bad-class}
spec: "gpu"
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: bare-class}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: no-spec}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: odd-devices}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: "new", resourceSliceCount: many}
  nodeName: gpu-node-1
  devices:
  - "gpu-0"
  - name: gpu-1
    attributes: [model]
    capacity: {memory: {policy: x}, cores: 8}
  - attributes: {model: {unknown: 1}}
    basic: "flat"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: devices-not-list}
spec: {driver: d, pool: {name: q}, devices: {gpu-0: {}}}
---
apiVersion: v1
kind: Pod
metadata: {name: odd-pod, namespace: bad}
spec:
  containers: [{name: c, image: x, resources: {claims: "gpu"}}]
  resourceClaims: ["gpu", {name: a, resourceClaimTemplateName: t}, {name: b, resourceClaimName: 5}]
status:
  phase: Pending
  resourceClaimStatuses: "none"
  conditions: [{type: PodScheduled, status: "False", reason: Unschedulable, message: 12}]
)";

json safe_view(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
               const std::string& name) {
  json view;
  REQUIRE_NOTHROW(view = testing::view_of(cluster, type, namespace_, name));
  return view;
}

}  // namespace

TEST_CASE("malformed DRA objects yield what can be read and a note", "[dra][malformed]") {
  fixture_cluster cluster;
  cluster.load_yaml(malformed);
  testing::mark_complete(cluster);

  json no_spec = safe_view(cluster, dra::claim_kind, "bad", "no-spec");
  CHECK(no_spec["state"]["label"] == "Pending");
  CHECK(no_spec["requests"].empty());
  CHECK(no_spec["allocation"].is_null());
  CHECK(testing::has_note_containing(no_spec, "spec is missing"));
  CHECK(testing::has_note_containing(no_spec, "status.allocation is not an object"));

  json wrong = safe_view(cluster, dra::claim_kind, "bad", "wrong-types");
  // reservedFor keeps its one readable entry.
  CHECK(wrong["state"]["label"] == "In use");
  REQUIRE(wrong["requests"].size() == 1);
  CHECK(wrong["requests"][0]["name"] == "gpu");
  CHECK(wrong["requests"][0]["deviceClassName"] == "gpu.example.com");
  CHECK(wrong["requests"][0]["count"].is_null());
  CHECK(wrong["requests"][0]["selectors"].empty());
  CHECK(wrong["requests"][0]["firstAvailable"].empty());
  CHECK(testing::has_note_containing(wrong, "Request #1 is not an object"));
  CHECK(testing::has_note_containing(wrong, "The count of request gpu is not a number"));
  CHECK(testing::has_note_containing(wrong, "The selectors of request gpu is not a list"));
  CHECK(testing::has_note_containing(wrong, "The firstAvailable list of request gpu is not a list"));
  CHECK(testing::has_note_containing(wrong, "no opaque driver configuration"));
  REQUIRE(wrong["allocation"]["devices"].size() == 1);
  CHECK(wrong["allocation"]["devices"][0]["device"] == "gpu-0");
  CHECK(wrong["allocation"]["devices"][0]["bindingConditions"].empty());
  CHECK(wrong["allocation"]["nodeSelector"] == "");
  CHECK(wrong["consumers"].size() == 1);

  json not_list = safe_view(cluster, dra::claim_kind, "bad", "requests-not-list");
  CHECK(testing::has_note_containing(not_list, "spec.devices.requests is not a list"));

  json claim_template = safe_view(cluster, dra::template_kind, "bad", "empty");
  CHECK(claim_template["requests"].empty());
  CHECK(claim_template["state"]["label"] == "Defined");
  CHECK(testing::has_note_containing(claim_template, "spec is missing"));

  json bad_class = safe_view(cluster, dra::device_class_kind, "", "bad-class");
  CHECK(bad_class["selectors"].empty());
  CHECK(testing::has_note_containing(bad_class, "not an object"));
  json bare_class = safe_view(cluster, dra::device_class_kind, "", "bare-class");
  CHECK(testing::has_note_containing(bare_class, "selects every device"));

  json slice_no_spec = safe_view(cluster, dra::slice_kind, "", "no-spec");
  CHECK(slice_no_spec["devices"].empty());
  CHECK(testing::has_note_containing(slice_no_spec, "no spec"));

  json odd = safe_view(cluster, dra::slice_kind, "", "odd-devices");
  REQUIRE(odd["devices"].size() == 2);
  CHECK(odd["devices"][0]["device"] == "gpu-1");
  CHECK(odd["devices"][0]["attributes"].empty());
  CHECK(odd["devices"][0]["capacity"] == json{{"cores", "8"}});
  CHECK(odd["devices"][1]["device"] == "#3");
  CHECK(odd["devices"][1]["attributes"]["model"].is_null());
  CHECK(testing::has_note_containing(odd, "Device #1 is not an object"));
  CHECK(testing::has_note_containing(odd, "The attributes of device gpu-1 is not a map"));
  CHECK(testing::has_note_containing(odd, "Capacity memory of device gpu-1 has no readable quantity"));
  CHECK(testing::has_note_containing(odd, "Attribute model has no value of a known type"));
  CHECK(testing::has_note_containing(odd, "Device #3 has no name"));

  json devices_not_list = safe_view(cluster, dra::slice_kind, "", "devices-not-list");
  CHECK(testing::has_note_containing(devices_not_list, "spec.devices is not a list"));

  computed_list page;
  REQUIRE_NOTHROW(page = dra::list_devices(cluster.context()));
  CHECK(page.items.size() == 2);

  json pod = safe_view(cluster, core::pod_kind, "bad", "odd-pod");
  REQUIRE(pod["claims"].size() == 3);
  CHECK(pod["claims"][0]["state"] == "Invalid");
  CHECK(pod["claims"][1]["state"] == "Not created yet");
  CHECK(pod["claims"][2]["state"] == "Invalid");
  CHECK(pod["claims"][2]["usedBy"].empty());

  // Every state function and the problem rule read them without throwing.
  for (const kind_key& type : {dra::claim_kind, dra::template_kind, dra::device_class_kind, dra::slice_kind}) {
    for (const object_ptr& object : cluster.store.list(type)) {
      INFO(object->key());
      CHECK_NOTHROW(testing::resource_for(type)->state(*object, cluster.context()));
    }
  }
  CHECK_NOTHROW(dra::evaluate_pod(*cluster.get("", "Pod", "bad", "odd-pod"), cluster.context()));
}

TEST_CASE("binding conditions that are not strings are said so, never named as empty", "[dra][malformed]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: odd-binding, namespace: bad}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: p, device: gpu-0, bindingConditions: [7, {a: b}]}]
)");
  testing::mark_complete(cluster);
  json view = safe_view(cluster, dra::claim_kind, "bad", "odd-binding");
  CHECK(view["allocation"]["devices"][0]["binding"] == "waiting");
  CHECK(testing::has_note_containing(view, "binding conditions that cannot be read (not strings)"));
  CHECK(testing::has_note_containing(view, "bindingConditions is not a string; it is left out."));
  CHECK_FALSE(testing::has_note_containing(view, "report  before"));
}
