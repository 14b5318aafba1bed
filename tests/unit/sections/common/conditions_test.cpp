// The toolkit's conditions: one JSON shape for every kind, and one "since" rule.
#include "sections/common/conditions.hpp"

#include <catch2/catch.hpp>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

// Every kind's conditions: type, status, reason, message and lastTransitionTime, the time null
// where the object wrote none.
void check_shape(const json& conditions) {
  REQUIRE(conditions.size() == 2);
  for (const json& condition : conditions) {
    CHECK(condition.size() == 5);
    for (const char* field : {"type", "status", "reason", "message"}) {
      INFO(field);
      CHECK(condition[field].is_string());
    }
  }
  CHECK(conditions[0]["lastTransitionTime"] == "2026-11-29T10:00:00Z");
  CHECK(conditions[1]["lastTransitionTime"].is_null());
  CHECK(conditions[1]["reason"] == "");
}

}  // namespace

TEST_CASE("conditions have one JSON shape in every section", "[toolkit][conditions]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Node
metadata: {name: gpu-node-1}
status:
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady, message: ready, lastTransitionTime: "2026-11-29T10:00:00Z"}
  - {type: DiskPressure, status: "False", message: fine}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
status:
  conditions:
  - {type: Active, status: "True", reason: Ready, message: ready, lastTransitionTime: "2026-11-29T10:00:00Z"}
  - {type: Other, status: "False", message: fine}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: claim, namespace: ml}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: node-1, device: gpu-0}]
  devices:
  - driver: gpu.example.com
    pool: node-1
    device: gpu-0
    conditions:
    - {type: Ready, status: "True", reason: Up, message: up, lastTransitionTime: "2026-11-29T10:00:00Z"}
    - {type: Other, status: "False", message: fine}
)");
  testing::mark_complete(cluster);
  check_shape(testing::view_of(cluster, core::node_kind, "", "gpu-node-1")["conditions"]);
  check_shape(testing::view_of(cluster, kueue::cluster_queue_kind, "", "cq")["conditions"]);
  check_shape(testing::view_of(cluster, dra::claim_kind, "ml", "claim")["allocation"]["devices"][0]["conditions"]);
}

TEST_CASE("conditions_json reads what it can of a malformed list", "[toolkit][conditions]") {
  json conditions = json::array({json{{"type", 3}, {"lastTransitionTime", ""}}, json("not a condition")});
  json out = conditions_json(pack(conditions).root());
  REQUIRE(out.size() == 2);
  CHECK(out[0]["type"] == "");
  CHECK(out[0]["lastTransitionTime"].is_null());
  CHECK(out[1]["status"] == "");
  CHECK(conditions_json(pack(json("nope")).root()).empty());
}

TEST_CASE("a state told by a condition carries its reason and its message masked", "[toolkit][conditions]") {
  json condition = {{"type", "Ready"},
                    {"status", "False"},
                    {"reason", "FetchFailed"},
                    {"message", "could not fetch https://user:pa55@host/model"}};
  packed_body packed = pack(condition);
  object_state state = condition_state("Not ready", &packed.root());
  CHECK(state.label == "Not ready");
  CHECK(state.reason == "FetchFailed");
  CHECK(state.message.find("pa55") == std::string::npos);
  CHECK(state.message.find("host/model") != std::string::npos);
  CHECK(state.message == masked_condition_message(&packed.root()));
  object_state none = condition_state("Progressing", nullptr);
  CHECK(none.label == "Progressing");
  CHECK(none.reason.empty());
  CHECK(none.message.empty());
}

TEST_CASE("since_of: the condition's transition time, else the object's creation", "[toolkit][since]") {
  json object = {{"metadata", {{"creationTimestamp", "2026-11-29T09:00:00Z"}}}};
  json timed = {{"type", "PodScheduled"}, {"lastTransitionTime", "2026-11-29T10:00:00Z"}};
  json untimed = {{"type", "PodScheduled"}};
  packed_body packed_object = pack(object);
  packed_body packed_timed = pack(timed);
  packed_body packed_untimed = pack(untimed);
  CHECK(since_of(&packed_timed.root(), packed_object.root()) == at("2026-11-29T10:00:00Z"));
  CHECK(since_of(&packed_untimed.root(), packed_object.root()) == at("2026-11-29T09:00:00Z"));
  CHECK(since_of(nullptr, packed_object.root()) == at("2026-11-29T09:00:00Z"));
  CHECK_FALSE(since_of(nullptr, pack(json::object()).root()).has_value());
}

TEST_CASE("a waiting pod's since follows the one rule in core", "[toolkit][since]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: untimed, namespace: ml, uid: p1, creationTimestamp: "2026-11-29T09:00:00Z"}
spec: {containers: [{name: main, image: x}]}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, message: "0/3 nodes are available."}
)");
  // Core's block, from an Unschedulable condition with no time: the pod's creation.
  CHECK(testing::view_of(cluster, core::pod_kind, "ml", "untimed")["waiting"]["since"] == "2026-11-29T09:00:00Z");
  // DRA's block and problem follow the same rule: shared_readers_test.cpp.
}
