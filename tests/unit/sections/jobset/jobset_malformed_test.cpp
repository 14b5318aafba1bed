// Wrong-typed and missing fields give a view with a note, never an exception. Our own fixtures,
// each bending one field of the JobSet CRD schema (jobset v0.12.0).
#include <catch2/catch.hpp>

#include "jobset_test_support.hpp"
#include "problems/problem_engine.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

TEST_CASE("a JobSet with wrong-typed fields reads around them and says so", "[jobset][malformed]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: bent, namespace: ml, uid: uid-bent}
spec:
  failurePolicy: {maxRestarts: "three", rules: "none"}
  startupPolicy: InOrder
  replicatedJobs: {name: workers}
status:
  restarts: "2"
  restartsCountTowardsMax: [1]
  conditions: {type: Failed, status: "True"}
  replicatedJobsStatus: 7
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: bare, namespace: ml}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: odd-conditions, namespace: ml, uid: uid-odd}
spec:
  failurePolicy: []
status:
  conditions:
  - 5
  - {type: 7, status: true}
  - {type: Failed, status: "True", reason: 3, message: {first: job}}
  replicatedJobsStatus: [{name: workers, active: "2", ready: null}, 3]
)");
  mark_children_read(cluster);
  json bent;
  REQUIRE_NOTHROW(bent = view_of(cluster, "ml", "bent"));
  CHECK(bent["state"]["label"] == "Pending");
  CHECK(has_note_containing(bent, "status.restarts is not a number"));
  CHECK(has_note_containing(bent, "status.restartsCountTowardsMax is not a number"));
  CHECK(has_note_containing(bent, "status.conditions is not a list"));
  CHECK(has_note_containing(bent, "spec.failurePolicy.maxRestarts is not a number"));
  CHECK(has_note_containing(bent, "status.replicatedJobsStatus is not a list"));
  CHECK(bent["restarts"]["total"] == 0);
  CHECK(bent["restarts"]["maxRestarts"] == 0);
  CHECK(bent["replicatedJobs"].empty());
  CHECK(bent["startupPolicy"].is_null());

  json bare;
  REQUIRE_NOTHROW(bare = view_of(cluster, "ml", "bare"));
  CHECK(bare["state"]["label"] == "Pending");
  CHECK(bare["restarts"]["limit"] == "none: no failure policy");
  CHECK(bare["conditions"].empty());

  json odd;
  REQUIRE_NOTHROW(odd = view_of(cluster, "ml", "odd-conditions"));
  CHECK(odd["state"]["label"] == "Failed");
  CHECK(odd["failedJob"].is_null());
  CHECK(has_note_containing(odd, "spec.failurePolicy is not an object"));
  CHECK(has_note_containing(odd, "names no failed Job"));

  section s = jobset::make_section();
  problem_engine engine(s.categories, s.rules);
  REQUIRE_NOTHROW(engine.evaluate(cluster.context()));
}
