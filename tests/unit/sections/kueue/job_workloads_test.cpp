// Which Workloads are a job's, the way Kueue v0.19.2 decides: one per group for a
// LeaderWorkerSet, all under its job-uid; a prebuilt Workload by the name the job gives, and only
// while no other object controls it; never a Workload Kueue would not use.
#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

json admitted() {
  return json::array({condition("QuotaReserved", "True", "QuotaReserved",
                                "Quota reserved in ClusterQueue cluster-queue", "2026-11-29T10:00:00Z"),
                      condition("Admitted", "True", "Admitted", "The workload is admitted", "2026-11-29T10:00:00Z")});
}

json pending() {
  return json::array({condition("QuotaReserved", "False", "Pending",
                                "couldn't assign flavors to pod set leader: insufficient unused quota for "
                                "nvidia.com/gpu in flavor h100, 8 more needed",
                                "2026-11-29T10:00:00Z")});
}

// One group's Workload as the LeaderWorkerSet integration makes it: named by
// GetWorkloadName(uid, name, index) (leaderworkerset_webhook.go:243-246), labelled with the
// LeaderWorkerSet's uid (leaderworkerset_reconciler.go:348), owned (not controlled) by it (:363)
// and, since v0.17, annotated with the group index (:357).
json group_workload(const std::string& name, int index, json conditions, bool annotated) {
  json object = workload(v1beta2, "default", name, "user-queue", std::move(conditions));
  object["metadata"]["labels"] = {{"kueue.x-k8s.io/job-uid", "u-lws"}};
  if (annotated) {
    object["metadata"]["annotations"] = {{"kueue.x-k8s.io/component-workload-index", std::to_string(index)},
                                         {"kueue.x-k8s.io/job-owner-name", "llm"}};
  }
  object["metadata"]["ownerReferences"] = {
      {{"apiVersion", "leaderworkerset.x-k8s.io/v1"}, {"kind", "LeaderWorkerSet"}, {"name", "llm"}, {"uid", "u-lws"}}};
  return object;
}

const char* leader_worker_set = R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: llm, namespace: default, uid: u-lws, labels: {kueue.x-k8s.io/queue-name: user-queue}}
spec: {replicas: 3, leaderWorkerTemplate: {size: 2}}
)";

}  // namespace

TEST_CASE("a LeaderWorkerSet's Queue section shows every group's Workload", "[kueue][queue-section]") {
  // reconcileWorkloads makes one Workload per replica, all under the same job-uid
  // (leaderworkerset_reconciler.go:211-248, 281-284). Group 1 waits while 0 and 2 are admitted.
  for (bool annotated : {true, false}) {  // v0.17+ annotates the index; earlier ones only name it
    INFO((annotated ? "annotated" : "named only"));
    fixture_cluster cluster;
    cluster.load_yaml(healthy_queues);
    cluster.load_yaml(leader_worker_set);
    load(cluster, {group_workload("leaderworkerset-llm-0-4a1b2", 0, admitted(), annotated),
                   group_workload("leaderworkerset-llm-1-9c8d7", 1, pending(), annotated),
                   group_workload("leaderworkerset-llm-2-5e6f0", 2, admitted(), annotated)});
    mark_complete(cluster);
    route_answer answer =
        queue_route(std::vector<std::string>{"leaderworkersets", "default", "llm"}, cluster.context());
    REQUIRE(answer.status == 200);
    // The Workload the job waits on leads.
    CHECK(answer.body["workload"]["name"] == "leaderworkerset-llm-1-9c8d7");
    CHECK(answer.body["state"]["label"] == "Pending");
    CHECK(
        answer.body["waiting"]["message"].get<std::string>().starts_with("couldn't assign flavors to pod set leader"));
    REQUIRE(answer.body["workloads"].size() == 3);
    CHECK(answer.body["workloadsTotal"] == 3);
    for (int index = 0; index < 3; ++index) {
      const json& group = answer.body["workloads"][static_cast<std::size_t>(index)];
      CHECK(group["group"] == index);
      CHECK(group["state"]["label"] == (index == 1 ? "Pending" : "Admitted"));
      CHECK(group["path"].get<std::string>().starts_with("/api/v1/kueue/workloads/default/leaderworkerset-llm-"));
    }
    CHECK_THAT(answer.body["message"].get<std::string>(), Catch::StartsWith("3 Workloads, one per group: 2 Admitted, "
                                                                            "1 Pending."));
  }
}

TEST_CASE("a single Workload's Queue section lists it alone", "[kueue][queue-section]") {
  fixture_cluster cluster;
  cluster.load_yaml(healthy_queues);
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default, uid: u-train, labels: {kueue.x-k8s.io/queue-name: user-queue}}
)");
  json object = workload(v1beta2, "default", "job-train-1a2b3", "user-queue", admitted());
  object["metadata"]["labels"] = {{"kueue.x-k8s.io/job-uid", "u-train"}};
  load(cluster, {object});
  mark_complete(cluster);
  route_answer answer = queue_route(std::vector<std::string>{"jobs", "default", "train"}, cluster.context());
  REQUIRE(answer.status == 200);
  CHECK(answer.body["workload"]["name"] == "job-train-1a2b3");
  REQUIRE(answer.body["workloads"].size() == 1);
  CHECK(answer.body["workloads"][0]["group"].is_null());
  CHECK(answer.body["message"].is_null());
  CHECK(answer.body["prebuiltWorkload"].is_null());
}

TEST_CASE("a prebuilt Workload another object controls is not the job's", "[kueue][queue-section]") {
  // ensureOneWorkload ignores a prebuilt Workload controlled by another object and looks no
  // further (pkg/controller/jobframework/reconciler.go:983-997): the job stays suspended.
  fixture_cluster cluster;
  cluster.load_yaml(healthy_queues);
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: second
  namespace: default
  uid: u-second
  labels: {kueue.x-k8s.io/queue-name: user-queue, kueue.x-k8s.io/prebuilt-workload-name: shared}
)");
  json taken = workload(v1beta2, "default", "shared", "user-queue", admitted());
  taken["metadata"]["labels"] = {{"kueue.x-k8s.io/job-uid", "u-first"}};
  taken["metadata"]["ownerReferences"] = {
      {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"name", "first"}, {"uid", "u-first"}, {"controller", true}}};
  // A Workload labelled with the job's uid is no fallback either: with a prebuilt name, Kueue
  // looks up that name only.
  json stray = workload(v1beta2, "default", "job-second-77777", "user-queue", admitted());
  stray["metadata"]["labels"] = {{"kueue.x-k8s.io/job-uid", "u-second"}};
  load(cluster, {taken, stray});
  mark_complete(cluster);
  route_answer answer = queue_route(std::vector<std::string>{"jobs", "default", "second"}, cluster.context());
  REQUIRE(answer.status == 200);
  CHECK(answer.body["workload"].is_null());
  CHECK(answer.body["state"].is_null());
  CHECK(answer.body["workloads"].empty());
  CHECK(answer.body["prebuiltWorkload"]["name"] == "shared");
  CHECK(answer.body["prebuiltWorkload"]["exists"] == true);
  CHECK(answer.body["prebuiltWorkload"]["controlledBy"]["kind"] == "Job");
  CHECK(answer.body["prebuiltWorkload"]["controlledBy"]["name"] == "first");
  CHECK(answer.body["message"] ==
        "Names the prebuilt Workload shared, which Job first controls: Kueue ignores it for this job, which stays "
        "suspended.");
}

TEST_CASE("a job naming a prebuilt Workload that does not exist waits for that name", "[kueue][queue-section]") {
  // A missing prebuilt Workload is never created: handleJobWithNoWorkload stops the job and returns
  // ErrPrebuiltWorkloadNotFound (pkg/controller/jobframework/reconciler.go:1795-1815).
  fixture_cluster cluster;
  cluster.load_yaml(healthy_queues);
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: waiting
  namespace: default
  uid: u-waiting
  labels: {kueue.x-k8s.io/queue-name: user-queue, kueue.x-k8s.io/prebuilt-workload-name: not-yet}
)");
  load(cluster, {workload(v1beta2, "default", "unrelated", "user-queue", admitted())});
  SECTION("Workloads not all read: cannot tell") {
    route_answer answer = queue_route(std::vector<std::string>{"jobs", "default", "waiting"}, cluster.context());
    REQUIRE(answer.status == 200);
    CHECK(answer.body["prebuiltWorkload"]["exists"] == "cannot tell");
    CHECK_THAT(answer.body["message"].get<std::string>(), Catch::StartsWith("Cannot tell yet"));
  }
  SECTION("all read: it waits for that name") {
    mark_complete(cluster);
    route_answer answer = queue_route(std::vector<std::string>{"jobs", "default", "waiting"}, cluster.context());
    REQUIRE(answer.status == 200);
    CHECK(answer.body["workload"].is_null());
    CHECK(answer.body["prebuiltWorkload"]["name"] == "not-yet");
    CHECK(answer.body["prebuiltWorkload"]["exists"] == false);
    CHECK(answer.body["prebuiltWorkload"]["controlledBy"].is_null());
    CHECK(answer.body["message"] ==
          "Waits for its prebuilt Workload not-yet: Kueue never creates a prebuilt Workload, and keeps the job "
          "suspended until one of that name exists.");
  }
}
