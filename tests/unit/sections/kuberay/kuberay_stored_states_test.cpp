// What a stored KubeRay status means, whichever operator version wrote it (issue 34): a stored
// Failed Ray Job is final, KubeRay v1.1's failed Ray Cluster says why (status.reason) and its
// `failed` is history beside a newer operator's conditions, a head that never became ready is a
// problem after 5 minutes, and states whose start the object does not record are timed from the
// daemon's first sighting and say so. Each object is written as the operator writes it; the
// upstream file and line are cited beside each (ray-project/kuberay, under ray-operator/).
// Fixtures: tests/fixtures/kuberay/.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster stored_objects(const char* now) {
  fixture_cluster cluster(at(now));
  for (const char* file : {"rayclusters.yaml", "rayjobs.yaml", "rayservices.yaml"}) {
    cluster.load_file(testing::fixtures_dir() / "kuberay" / file);
  }
  testing::mark_complete(cluster);
  return cluster;
}

// The problems of one engine over `cluster`, evaluated at each time in turn (the engine keeps
// its first sightings between evaluations, as the daemon's does).
class ray_problem_rounds {
 public:
  explicit ray_problem_rounds(fixture_cluster& cluster)
      : cluster_(cluster), section_(kuberay::make_section()), engine_(section_.categories, section_.rules) {}

  std::vector<problem> at_time(const char* when) {
    cluster_.now = at(when);
    engine_.evaluate(cluster_.context());
    return engine_.current();
  }

 private:
  fixture_cluster& cluster_;
  section section_;
  problem_engine engine_;
};

}  // namespace

TEST_CASE("a stored Failed Ray Job is final, whatever its attempts and limit say", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::rayjob_kind;
  // KubeRay turns a failure it will retry into Retrying before it writes the status
  // (checkBackoffLimitAndUpdateStatusIfNeeded, then updateRayJobStatus:
  // controllers/ray/rayjob_controller.go:452-456,518-557 at v1.7.0) and never leaves a stored
  // Failed (:420-447). 1 of 4 attempts failed: the limit was raised after the job failed.
  json raised = testing::view_of(cluster, k, "ml", "failed-limit-raised");
  CHECK(raised["state"]["label"] == "Failed");
  CHECK(raised["state"]["reason"] == "AppFailed");
  CHECK(raised["attempts"] == json({{"failed", 1}, {"limit", 4}}));
  CHECK(testing::has_note_containing(raised, "the limit was raised after the job failed"));
  CHECK(raised["since"] == "2026-11-29T11:00:00Z");
  CHECK(raised["sinceFrom"] == "the object");

  // v1.1 has no retries, no spec.backoffLimit, no status.failed (rayjob_controller.go:228-246 at
  // v1.1.0): Failed, and the failed count is not known rather than 0.
  json v11 = testing::view_of(cluster, k, "ml", "v11-failed");
  CHECK(v11["state"]["label"] == "Failed");
  CHECK(v11["state"]["message"] == "Job entrypoint command failed with exit code 1");
  CHECK(v11["attempts"] == json({{"failed", nullptr}, {"limit", 1}}));
  CHECK(v11["since"] == "2026-11-29T11:30:00Z");

  // DeadlineExceeded is never retried, whatever the limit (rayjob_controller.go:543-552 at v1.7.0).
  json deadline = testing::view_of(cluster, k, "ml", "deadline");
  CHECK(deadline["state"]["label"] == "Failed");
  CHECK_FALSE(testing::has_note_containing(deadline, "the limit was raised"));

  // A real retry is stored as Retrying (and the fixture's own retrying job still reads so).
  CHECK(testing::state_of(cluster, k, "ml", "retrying").label == "Retrying");

  std::vector<problem> now = ray_problem_rounds(cluster).at_time("2026-11-29T12:00:00Z");
  const problem* failed = testing::problem_of(now, k, "failed-limit-raised", "failed");
  REQUIRE(failed != nullptr);
  CHECK(failed->since == at("2026-11-29T11:00:00Z"));
  CHECK(testing::problem_of(now, k, "v11-failed", "failed") != nullptr);
}

TEST_CASE("a failed Ray Job without endTime is timed from the first sighting, and says so", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  // ValidationFailed is written with no endTime (only Complete and Failed are terminal:
  // apis/ray/v1/rayjob_types.go:60-64, rayjob_controller.go:933-936 at v1.7.0).
  json invalid = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "invalid");
  CHECK(invalid["state"]["label"] == "Failed");
  CHECK(invalid["since"].is_null());
  CHECK(invalid["sinceFrom"] == "first sighting");
  CHECK(testing::has_note_containing(invalid, "since is when this daemon first saw it so"));

  // Created at 11:00, it is a problem from the first sighting (noon) for a day, not from creation.
  ray_problem_rounds rounds(cluster);
  std::vector<problem> noon = rounds.at_time("2026-11-29T12:00:00Z");
  const problem* first = testing::problem_of(noon, kuberay::rayjob_kind, "invalid");
  REQUIRE(first != nullptr);
  CHECK(first->since == at("2026-11-29T12:00:00Z"));
  CHECK(testing::problem_of(rounds.at_time("2026-11-30T11:59:59Z"), kuberay::rayjob_kind, "invalid") != nullptr);
  CHECK(testing::problem_of(rounds.at_time("2026-11-30T12:00:00Z"), kuberay::rayjob_kind, "invalid") == nullptr);
}

TEST_CASE("a retried Ray Job waits since its new attempt began, not since its creation", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  // initRayJobStatusIfNeed writes status.startTime with every Initializing, retries included
  // (controllers/ray/rayjob_controller.go:887-917 at v1.7.0).
  json retried = testing::view_of(cluster, kuberay::rayjob_kind, "ml", "retried-initializing");
  CHECK(retried["state"]["label"] == "Pending");
  CHECK(retried["since"] == "2026-11-29T11:40:00Z");
  CHECK(retried["attempts"] == json({{"failed", 1}, {"limit", 3}}));
  // A first attempt without startTime (before the operator wrote it) waits since its creation.
  CHECK(testing::view_of(cluster, kuberay::rayjob_kind, "ml", "new")["since"] == "2026-11-29T11:59:00Z");
}

TEST_CASE("KubeRay v1.1's failed Ray Cluster shows its reason, URL credentials removed", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  // v1.1 writes `failed` and the pod reconcile error in status.reason
  // (controllers/ray/raycluster_controller.go:351-357,1541-1549 at v1.1.0).
  json failed = testing::view_of(cluster, kuberay::raycluster_kind, "ml", "old-failed");
  CHECK(failed["state"]["label"] == "Failed");
  const std::string message = failed["state"]["message"].get<std::string>();
  CHECK(message.find("exceeded quota: gpu-quota") != std::string::npos);
  CHECK(message.find("https://quota.example.com/ml") != std::string::npos);
  CHECK(failed["statusReason"].get<std::string>().find("forbidden: exceeded quota") != std::string::npos);
  CHECK(failed["sinceFrom"] == "first sighting");
  CHECK(failed.dump().find("quotasecret") == std::string::npos);

  std::vector<problem> now = ray_problem_rounds(cluster).at_time("2026-11-29T12:00:00Z");
  const problem* p = testing::problem_of(now, kuberay::raycluster_kind, "old-failed", "failed");
  REQUIRE(p != nullptr);
  CHECK(p->message.find("exceeded quota: gpu-quota") != std::string::npos);
  CHECK(p->message.find("quotasecret") == std::string::npos);
}

TEST_CASE("v1.1's failed state beside a newer operator's conditions is history", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  // From v1.2 nothing writes `failed` (the constant is kept only so imports compile:
  // apis/ray/v1/raycluster_types.go:560-565 at v1.7.0), and state and reason are reset only when
  // the cluster is ready again (controllers/ray/raycluster_controller.go:2017-2022 at v1.7.0).
  json stale = testing::view_of(cluster, kuberay::raycluster_kind, "ml", "upgraded-stale-failed");
  CHECK(stale["state"]["label"] == "Ready");
  CHECK(testing::has_note_containing(stale, "left by KubeRay v1.1 or before"));
  CHECK(testing::has_note_containing(stale, "status.reason holds an earlier reconcile error"));
  CHECK(stale.dump().find("stalesecret") == std::string::npos);
  std::vector<problem> now = ray_problem_rounds(cluster).at_time("2026-11-29T12:00:00Z");
  CHECK(testing::problem_of(now, kuberay::raycluster_kind, "upgraded-stale-failed") == nullptr);
}

TEST_CASE("a Ray Cluster whose head never became ready is a problem after 5 minutes", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::raycluster_kind;
  // HeadPodReady mirrors the head pod's Ready with the waiting container's reason
  // (FindHeadPodReadyCondition: controllers/ray/utils/util.go:84-125 at v1.7.0) and is written
  // whether or not RayClusterProvisioned is True (raycluster_controller.go:2025-2037).
  json never = testing::view_of(cluster, k, "ml", "head-never-ready");
  CHECK(never["state"]["label"] == "Provisioning");
  CHECK(never["state"]["reason"] == "RayClusterPodsProvisioning");
  CHECK(never["state"]["message"].get<std::string>().find("The head is not ready (ImagePullBackOff)") !=
        std::string::npos);
  // The earlier of HeadPodReady's time (09:00:01) and the head pod's own Ready (09:00:30).
  CHECK(never["headNotReadySince"] == "2026-11-29T09:00:01Z");

  // Before conditions (v1.1, or the gate off): the head pod's own Ready condition tells.
  json old = testing::view_of(cluster, k, "ml", "old-head-never-ready");
  CHECK(old["state"]["label"] == "Provisioning");
  CHECK(old["headNotReadySince"] == "2026-11-29T11:40:00Z");

  ray_problem_rounds rounds(cluster);
  std::vector<problem> early = rounds.at_time("2026-11-29T11:44:59Z");
  CHECK(testing::problem_of(early, k, "old-head-never-ready") == nullptr);
  const problem* head = testing::problem_of(early, k, "head-never-ready", "head-not-ready");
  REQUIRE(head != nullptr);
  CHECK(head->since == at("2026-11-29T09:00:01Z"));
  CHECK(head->message.find("(ImagePullBackOff)") != std::string::npos);
  std::vector<problem> later = rounds.at_time("2026-11-29T11:45:00Z");
  const problem* crash = testing::problem_of(later, k, "old-head-never-ready");
  REQUIRE(crash != nullptr);
  // In the words a v1.3+ operator would write: the waiting container's reason for ContainersNotReady.
  CHECK(crash->message.find("(CrashLoopBackOff)") != std::string::npos);
  CHECK(crash->message.find("ray-head: back-off 5m0s restarting failed container") != std::string::npos);
}

TEST_CASE("a head not ready since before the operator wrote conditions counts from the pod's own Ready",
          "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::raycluster_kind;
  // The conditions were first written at 11:55 (SetStatusCondition stamps a new condition with
  // the time it is set), the head pod's Ready has been False since 11:00.
  json upgraded = testing::view_of(cluster, k, "ml", "upgraded-head-not-ready");
  CHECK(upgraded["state"]["label"] == "Provisioning");
  CHECK(upgraded["headNotReadySince"] == "2026-11-29T11:00:00Z");
  ray_problem_rounds rounds(cluster);
  std::vector<problem> noon = rounds.at_time("2026-11-29T12:00:00Z");
  const problem* head = testing::problem_of(noon, k, "upgraded-head-not-ready", "head-not-ready");
  REQUIRE(head != nullptr);
  CHECK(head->since == at("2026-11-29T11:00:00Z"));
  CHECK(head->message.find("(CrashLoopBackOff)") != std::string::npos);
}

TEST_CASE("a resumed Ray Cluster's head is not judged from before the resume", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::raycluster_kind;
  // HeadPodReady turned False when the head was deleted for the suspension (10:00) and keeps that
  // time; RayClusterSuspended turned False on the resume at 11:58
  // (raycluster_controller.go:2094-2101 at v1.7.0).
  json resumed = testing::view_of(cluster, k, "ml", "resumed");
  CHECK(resumed["state"]["label"] == "Provisioning");
  CHECK(resumed["headNotReadySince"] == "2026-11-29T11:58:00Z");
  ray_problem_rounds rounds(cluster);
  CHECK(testing::problem_of(rounds.at_time("2026-11-29T12:02:59Z"), k, "resumed") == nullptr);
  CHECK(testing::problem_of(rounds.at_time("2026-11-29T12:03:00Z"), k, "resumed", "head-not-ready") != nullptr);
}

TEST_CASE("a pre-v1.3 Ray Service not running is timed from the first sighting, not its creation",
          "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::rayservice_kind;
  // Before v1.3 nothing records when serviceStatus changed (apis/ray/v1/rayservice_types.go:66-74
  // at v1.2.2); Restarting replaces the unhealthy active cluster with a pending one
  // (markRestartAndAddPendingClusterName: controllers/ray/rayservice_controller.go:939-948 at
  // v1.2.2), which is no upgrade.
  json restarting = testing::view_of(cluster, k, "ml", "old-restarting");
  CHECK(restarting["state"]["label"] == "Not ready");
  CHECK(restarting["state"]["reason"] == "Restarting");
  CHECK(restarting["state"]["message"].get<std::string>().find("replaces the unhealthy Ray Cluster old-restarting-a "
                                                               "with old-restarting-b") != std::string::npos);
  CHECK(restarting["since"].is_null());
  CHECK(restarting["sinceFrom"] == "first sighting");
  CHECK(testing::has_note_containing(restarting, "KubeRay before v1.3 does not record since when"));
  CHECK(testing::view_of(cluster, k, "ml", "old-waiting")["sinceFrom"] == "first sighting");

  // Created two months ago: not a problem at once, but 10 minutes after it was first seen so.
  ray_problem_rounds rounds(cluster);
  CHECK(testing::problem_of(rounds.at_time("2026-11-29T12:00:00Z"), k, "old-restarting") == nullptr);
  CHECK(testing::problem_of(rounds.at_time("2026-11-29T12:09:59Z"), k, "old-restarting") == nullptr);
  std::vector<problem> ten_past = rounds.at_time("2026-11-29T12:10:00Z");
  const problem* late = testing::problem_of(ten_past, k, "old-restarting", "not-ready");
  REQUIRE(late != nullptr);
  CHECK(late->since == at("2026-11-29T12:00:00Z"));
  // With conditions (v1.3+), since is the object's.
  json v13 = testing::view_of(cluster, k, "ml", "endpoints-dropped");
  CHECK(v13["since"] == "2026-11-29T11:40:00Z");
  CHECK(v13["sinceFrom"] == "the object");
}

TEST_CASE("KubeRay v1.0's deployment statuses read as the retried steps they were", "[kuberay][issue34]") {
  fixture_cluster cluster = stored_objects("2026-11-29T12:00:00Z");
  const kind_key& k = kuberay::rayjob_kind;
  // v1.0 wrote FailedToGetJobStatus when the Ray dashboard did not answer about a job it had
  // submitted, and FailedJobDeploy when the submission failed, and retried both
  // (controllers/ray/rayjob_controller.go:219-253 at v1.0.0); neither is a failed job, and
  // neither is "not started" while the job runs.
  object_state unread = testing::state_of(cluster, k, "ml", "v10-status-unread");
  CHECK(unread.label == "Running");
  CHECK(unread.reason == "FailedToGetJobStatus");
  CHECK(unread.message.find("KubeRay v1.0") != std::string::npos);
  object_state deploy = testing::state_of(cluster, k, "ml", "v10-deploy-failed");
  CHECK(deploy.label == "Pending");
  CHECK(deploy.reason == "FailedJobDeploy");
  CHECK(deploy.message.find("retries") != std::string::npos);
  std::vector<problem> now = ray_problem_rounds(cluster).at_time("2026-11-29T12:00:00Z");
  CHECK(testing::problem_of(now, k, "v10-status-unread") == nullptr);
  CHECK(testing::problem_of(now, k, "v10-deploy-failed") == nullptr);
}
