// The `kuberay` problems at and past their thresholds: a failed Ray Cluster (5 minutes for a
// replica failure, at once for the old failed state) or its head not ready for 5 minutes; a
// failed Ray Job from its failure until a day later; a Ray Service not ready for 10 minutes (at
// once for an invalid spec or an initializing timeout), or an unhealthy Serve application for 5
// minutes. No message holds what masking hides.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

std::vector<problem> evaluate(const std::string& when) {
  fixture_cluster cluster(at(when.c_str()));
  for (const char* file : {"rayclusters.yaml", "rayjobs.yaml", "rayservices.yaml"}) {
    cluster.load_file(testing::fixtures_dir() / "kuberay" / file);
  }
  testing::mark_complete(cluster);
  section s = kuberay::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(cluster.context());
  return engine.current();
}

}  // namespace

TEST_CASE("Ray Cluster problems: replica failure after 5 minutes, old failed state at once, head not ready",
          "[kuberay][problems]") {
  const kind_key& k = kuberay::raycluster_kind;
  // ReplicaFailure since 11:50, head not ready since 11:50.
  std::vector<problem> early = evaluate("2026-11-29T11:54:59Z");
  CHECK(testing::problem_of(early, k, "replica-failure") == nullptr);
  CHECK(testing::problem_of(early, k, "head-not-ready") == nullptr);
  CHECK(testing::problem_of(early, k, "old-failed") != nullptr);
  CHECK(testing::problem_of(early, k, "old-unhealthy") != nullptr);
  std::vector<problem> later = evaluate("2026-11-29T11:55:00Z");
  const problem* failed = testing::problem_of(later, k, "replica-failure", "failed");
  REQUIRE(failed != nullptr);
  CHECK(failed->message.find("quotapw") == std::string::npos);
  CHECK(failed->message.find("FailedCreateWorkerPod") != std::string::npos);
  CHECK(testing::problem_of(later, k, "head-not-ready", "head-not-ready") != nullptr);
  // old-ready-stale: the head pod not ready since 11:30.
  CHECK(testing::problem_of(later, k, "old-ready-stale", "head-not-ready") != nullptr);
  CHECK(testing::problem_of(later, k, "ready") == nullptr);
  CHECK(testing::problem_of(later, k, "suspended") == nullptr);
  CHECK(testing::problem_of(later, k, "provisioning") == nullptr);
}

TEST_CASE("a failed Ray Job is a problem from its failure until a day later; a retried one is not",
          "[kuberay][problems]") {
  const kind_key& k = kuberay::rayjob_kind;
  // failed ended at 2026-11-29T10:00:00Z.
  std::vector<problem> now = evaluate("2026-11-29T12:00:00Z");
  const problem* failed = testing::problem_of(now, k, "failed", "failed");
  REQUIRE(failed != nullptr);
  CHECK(failed->message.find("logpassword") == std::string::npos);
  CHECK(testing::problem_of(now, k, "failed-limit-raised", "failed") != nullptr);  // a stored Failed is final
  CHECK(testing::problem_of(now, k, "retrying") == nullptr);
  CHECK(testing::problem_of(now, k, "stopped") == nullptr);
  CHECK(testing::problem_of(evaluate("2026-11-30T09:59:59Z"), k, "failed") != nullptr);
  CHECK(testing::problem_of(evaluate("2026-11-30T10:00:00Z"), k, "failed") == nullptr);
}

TEST_CASE("Ray Service problems: not ready for 10 minutes, at once when invalid or timed out, unhealthy apps",
          "[kuberay][problems]") {
  const kind_key& k = kuberay::rayservice_kind;
  std::vector<problem> now = evaluate("2026-11-29T12:00:00Z");
  CHECK(testing::problem_of(now, k, "invalid", "failed") != nullptr);
  CHECK(testing::problem_of(now, k, "timed-out", "failed") != nullptr);
  // initializing since 11:55: not yet; endpoints-dropped since 11:40: yes.
  CHECK(testing::problem_of(now, k, "initializing") == nullptr);
  CHECK(testing::problem_of(now, k, "endpoints-dropped", "not-ready") != nullptr);
  CHECK(testing::problem_of(evaluate("2026-11-29T12:05:00Z"), k, "initializing", "not-ready") != nullptr);
  // old-unhealthy-app: DEPLOY_FAILED since 11:50 (healthLastUpdateTime, v1.2).
  const problem* app = testing::problem_of(now, k, "old-unhealthy-app", "unhealthy-app-active-default");
  REQUIRE(app != nullptr);
  CHECK(testing::problem_of(evaluate("2026-11-29T11:54:59Z"), k, "old-unhealthy-app") == nullptr);
  CHECK(testing::problem_of(now, k, "ready") == nullptr);
  CHECK(testing::problem_of(now, k, "upgrading") == nullptr);
  CHECK(testing::problem_of(now, k, "suspended") == nullptr);
  // Suspending since 11:30 (v1.7): being stopped on purpose, not a service that is not ready.
  CHECK(testing::problem_of(now, k, "v17-suspending") == nullptr);
  CHECK(testing::problem_of(now, k, "v17-suspended") == nullptr);
  // Resumed at 11:45 and initializing again: not ready for 15 minutes by noon.
  CHECK(testing::problem_of(now, k, "v17-resumed", "not-ready") != nullptr);
  for (const problem& p : now) {
    CHECK(p.message.find("apppass") == std::string::npos);
  }
}
