// Ray Clusters, Ray Jobs and Ray Services: every state in every operator version the notes
// describe (before and after conditions), their details, links, and the masking of every text
// they show. Fixtures: tests/fixtures/kuberay/ (our own, from the ray.io/v1 CRD schema).
#include <catch2/catch.hpp>

#include "sections/kuberay/kuberay_section.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster fixture_objects_loaded() {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  for (const char* file : {"rayclusters.yaml", "rayjobs.yaml", "rayservices.yaml"}) {
    cluster.load_file(testing::fixtures_dir() / "kuberay" / file);
  }
  testing::mark_complete(cluster);
  return cluster;
}

std::string label(const fixture_cluster& cluster, const kind_key& type, const std::string& name) {
  return testing::state_of(cluster, type, "ml", name).label;
}

bool links_to(const json& view, const std::string& rel, const std::string& name) {
  return testing::link_with(view, rel, name) != nullptr;
}

}  // namespace

TEST_CASE("Ray Cluster states, with conditions and with the older status.state", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  const kind_key& k = kuberay::raycluster_kind;
  CHECK(label(cluster, k, "ready") == "Ready");
  CHECK(label(cluster, k, "provisioning") == "Provisioning");
  CHECK(label(cluster, k, "head-not-ready") == "Head not ready");
  CHECK(label(cluster, k, "replica-failure") == "Failed");
  CHECK(label(cluster, k, "suspending") == "Suspending");
  CHECK(label(cluster, k, "suspended") == "Suspended");
  CHECK(label(cluster, k, "old-ready") == "Ready");
  // `ready` is never reset: the head pod tells it is not ready any more.
  CHECK(label(cluster, k, "old-ready-stale") == "Head not ready");
  CHECK(label(cluster, k, "old-pending") == "Provisioning");
  CHECK(label(cluster, k, "old-suspended") == "Suspended");
  CHECK(label(cluster, k, "old-unhealthy") == "Failed");
  CHECK(label(cluster, k, "old-failed") == "Failed");
  // head-not-ready still has `state: ready`: the condition wins.
  CHECK(testing::state_of(cluster, k, "ml", "head-not-ready").reason == "CrashLoopBackOff");
}

TEST_CASE("Ray Cluster details: pods, ready counts per group, autoscaling range, links", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  json view = testing::view_of(cluster, kuberay::raycluster_kind, "ml", "ready");
  const json& groups = view["workerGroups"];
  REQUIRE(groups.size() == 2);
  CHECK(groups[0]["name"] == "gpu");
  CHECK(groups[0]["range"] == "at least 1, no upper limit");
  CHECK(groups[0]["pods"] == 2);
  CHECK(groups[0]["readyPods"] == 1);
  CHECK(groups[1]["range"] == "1 to 4");
  CHECK(groups[1]["pods"] == 1);  // the pod in another namespace is not its
  CHECK(view["pods"]["items"].size() == 4);
  CHECK(view["pods"]["incomplete"] == false);
  CHECK(links_to(view, "head-pod", "ready-head-abcde"));
  CHECK(links_to(view, "head-service", "ready-head-svc"));
  CHECK(view["workers"]["ready"] == 3);

  json failed = testing::view_of(cluster, kuberay::raycluster_kind, "ml", "replica-failure");
  CHECK(failed.dump().find("quotapw") == std::string::npos);
  CHECK(links_to(failed, "head-service", "replica-failure-head-svc"));
}

TEST_CASE("Ray Job states: a failed attempt that will be retried is Retrying, a stored Failed is final", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  const kind_key& k = kuberay::rayjob_kind;
  CHECK(label(cluster, k, "new") == "Pending");
  CHECK(label(cluster, k, "initializing") == "Pending");
  CHECK(label(cluster, k, "waiting") == "Pending");
  CHECK(label(cluster, k, "submitted") == "Pending");
  CHECK(label(cluster, k, "running") == "Running");
  CHECK(label(cluster, k, "retrying") == "Retrying");
  // A stored Failed is final: KubeRay writes Retrying instead when it will retry.
  CHECK(label(cluster, k, "failed-limit-raised") == "Failed");
  CHECK(label(cluster, k, "failed") == "Failed");
  CHECK(label(cluster, k, "deadline") == "Failed");  // never retried
  CHECK(label(cluster, k, "invalid") == "Failed");
  CHECK(label(cluster, k, "succeeded") == "Succeeded");
  CHECK(label(cluster, k, "stopped") == "Stopped");
  CHECK(label(cluster, k, "suspending") == "Suspended");
  CHECK(label(cluster, k, "suspended") == "Suspended");
}

TEST_CASE("Ray Job details: attempts against the limit, masked entrypoint, no runtime env, links", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  json running = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "running");
  std::string text = running.dump();
  CHECK(text.find("hf_jobsecret") == std::string::npos);
  CHECK(text.find("k3ysecret") == std::string::npos);
  CHECK(text.find("runtimesecret") == std::string::npos);
  CHECK(running["entrypoint"].get<std::string>().find("--epochs 3") != std::string::npos);
  CHECK(running["attempts"]["limit"] == 3);
  CHECK(links_to(running, "ray-cluster", "running-abcde"));
  CHECK(links_to(running, "submitter-job", "running"));

  json failed = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "failed");
  CHECK(failed.dump().find("logpassword") == std::string::npos);
  CHECK(failed["attempts"]["failed"] == 2);
  CHECK(failed["attempts"]["limit"] == 2);

  json http = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "submitted");
  CHECK_FALSE(links_to(http, "submitter-job", "submitted"));

  json unreadable = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "unreadable-entrypoint");
  CHECK(unreadable["entrypoint"] == "see YAML");
}

TEST_CASE("Ray Service states, with conditions and with the older serviceStatus", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  const kind_key& k = kuberay::rayservice_kind;
  CHECK(label(cluster, k, "ready") == "Ready");
  CHECK(label(cluster, k, "initializing") == "Not ready");
  CHECK(label(cluster, k, "endpoints-dropped") == "Not ready");
  CHECK(label(cluster, k, "upgrading") == "Upgrading");
  CHECK(label(cluster, k, "rollback") == "Upgrading");
  CHECK(testing::state_of(cluster, k, "ml", "rollback").message.starts_with("Rollback in progress"));
  CHECK(label(cluster, k, "invalid") == "Failed");
  CHECK(label(cluster, k, "timed-out") == "Failed");
  CHECK(label(cluster, k, "suspended") == "Suspended");
  // v1.7: Suspending is shown as Suspended, reason Suspending (the spec has no Suspending state).
  object_state suspending = testing::state_of(cluster, k, "ml", "v17-suspending");
  CHECK(suspending.label == "Suspended");
  CHECK(suspending.reason == "Suspending");
  CHECK(suspending.message.starts_with("Being suspended"));
  CHECK(label(cluster, k, "v17-suspended") == "Suspended");
  CHECK(testing::state_of(cluster, k, "ml", "v17-suspended").reason == "SuspendComplete");
  CHECK(label(cluster, k, "v17-resumed") == "Not ready");
  CHECK(label(cluster, k, "old-running") == "Ready");
  CHECK(label(cluster, k, "old-waiting") == "Not ready");
  CHECK(label(cluster, k, "old-upgrading") == "Upgrading");
}

TEST_CASE("Ray Service details: Serve apps, masked Serve config, the active cluster serving, links", "[kuberay]") {
  fixture_cluster cluster = fixture_objects_loaded();
  json ready = testing::view_of(cluster, kuberay::rayservice_kind, "ml", "ready");
  std::string text = ready.dump();
  for (const char* secret : {"envsecret", "argsecret", "urlsecret", "AKIAKEY", "MODEL_ID: llama"}) {
    INFO(secret);
    CHECK(text.find(secret) == std::string::npos);
  }
  std::string config = ready["serveConfig"].get<std::string>();
  CHECK(config.find("max_tokens: 512") != std::string::npos);
  CHECK(config.find("llama-tok") != std::string::npos);
  CHECK(config.find("<hidden>") != std::string::npos);
  CHECK(links_to(ready, "active-cluster", "ready-abcde"));
  CHECK(links_to(ready, "serve-service", "ready-serve-svc"));

  json upgrading = testing::view_of(cluster, kuberay::rayservice_kind, "ml", "upgrading");
  CHECK(upgrading["state"]["message"].get<std::string>().find("keeps serving") != std::string::npos);
  CHECK(testing::has_note_containing(upgrading, "keeps serving"));
  CHECK(links_to(upgrading, "active-cluster", "upgrading-old12"));
  CHECK(links_to(upgrading, "pending-cluster", "upgrading-new34"));
  CHECK(links_to(upgrading, "serve-service", "custom-serve"));
  CHECK(upgrading["serveApplications"].size() == 2);

  json dropped = testing::view_of(cluster, kuberay::rayservice_kind, "ml", "endpoints-dropped");
  CHECK(dropped.dump().find("apppass") == std::string::npos);
  CHECK(dropped["serveApplications"][0]["healthy"] == false);
}

TEST_CASE("Ray objects of the wrong shape give a view and a note, never an exception", "[kuberay]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"yaml(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: bad, namespace: ml}
spec: {workerGroupSpecs: 3, enableInTreeAutoscaling: "yes"}
status: {state: 7, conditions: {a: b}}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: bad, namespace: ml}
spec: {entrypoint: [a], backoffLimit: "x"}
status: {failed: "two", jobDeploymentStatus: 3}
---
apiVersion: ray.io/v1
kind: RayService
metadata: {name: bad, namespace: ml}
spec: {serveConfigV2: {not: a string}}
status: {activeServiceStatus: [], conditions: "x", pendingServiceStatus: {applicationStatuses: [1]}}
)yaml");
  testing::mark_complete(cluster);
  json c = testing::view_of(cluster, kuberay::raycluster_kind, "ml", "bad");
  CHECK(c["state"]["label"] == "Provisioning");
  CHECK(testing::has_note_containing(c, "status.state is not a string"));
  json j = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "bad");
  CHECK(j["state"]["label"] == "Pending");
  CHECK(testing::has_note_containing(j, "status.failed is not a number"));
  json s = testing::view_of(cluster, kuberay::rayservice_kind, "ml", "bad");
  CHECK(s["state"]["label"] == "Not ready");
  CHECK(s["serveConfig"] == "see YAML");
}
