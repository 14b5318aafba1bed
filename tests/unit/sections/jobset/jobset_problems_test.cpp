// The `jobset` problems at and past their thresholds: a failed JobSet from the moment it failed
// until a day later; a running one with at most one restart left before maxRestarts. Fixtures
// written from the JobSet CRD schema (jobset v0.12.0); our own.
#include <catch2/catch.hpp>

#include "jobset_test_support.hpp"
#include "problems/problem_engine.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

const char* objects = R"yaml(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: failed, namespace: ml, uid: uid-failed, creationTimestamp: "2026-11-28T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 2}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 2
  restartsCountTowardsMax: 2
  terminalState: Failed
  conditions:
  - {type: Failed, status: "True", reason: ReachedMaxRestarts, message: "jobset failed due to reaching max number of restarts (first failed job: failed-workers-1)", lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: failed-workers-1
  namespace: ml
  uid: uid-failed-workers-1
  labels: {jobset.sigs.k8s.io/jobset-name: failed, jobset.sigs.k8s.io/restart-attempt: "2"}
status:
  conditions:
  - {type: Failed, status: "True", reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: one-left, namespace: ml, uid: uid-one-left, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 3}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 2
  restartsCountTowardsMax: 2
  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]
  conditions:
  - {type: RestartingJobSet, status: "False", reason: JobsReady, message: all jobs are ready, lastTransitionTime: "2026-11-29T11:00:00Z"}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: none-left, namespace: ml, uid: uid-none-left, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 3}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 3
  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: none-left-workers-0
  namespace: ml
  uid: uid-none-left-workers-0
  creationTimestamp: "2026-11-29T10:30:00Z"
  labels: {jobset.sigs.k8s.io/jobset-name: none-left, jobset.sigs.k8s.io/restart-attempt: "3"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: none-left-workers-1
  namespace: ml
  uid: uid-none-left-workers-1
  creationTimestamp: "2026-11-29T10:31:00Z"
  labels: {jobset.sigs.k8s.io/jobset-name: none-left, jobset.sigs.k8s.io/restart-attempt: "3"}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: two-left, namespace: ml, uid: uid-two-left, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 3}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 1
  restartsCountTowardsMax: 1
  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: no-limit, namespace: ml, uid: uid-no-limit, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 0
  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: suspended-at-limit, namespace: ml, uid: uid-suspended-at-limit, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  suspend: true
  failurePolicy: {maxRestarts: 1}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 1
  restartsCountTowardsMax: 1
  conditions:
  - {type: Suspended, status: "True", reason: SuspendedJobs, message: jobset is suspended, lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: completed-at-limit, namespace: ml, uid: uid-completed-at-limit, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 1}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 1
  restartsCountTowardsMax: 1
  terminalState: Completed
  conditions:
  - {type: Completed, status: "True", reason: AllJobsCompleted, message: jobset completed successfully, lastTransitionTime: "2026-11-29T10:00:00Z"}
)yaml";

struct evaluated {
  std::vector<problem> problems;
  std::optional<time_point> next_due;
};

evaluated evaluate(const std::string& when) {
  fixture_cluster cluster(at(when.c_str()));
  cluster.load_yaml(objects);
  mark_children_read(cluster);
  section s = jobset::make_section();
  problem_engine engine(s.categories, s.rules);
  evaluated out;
  out.next_due = engine.evaluate(cluster.context());
  out.problems = engine.current();
  return out;
}

}  // namespace

TEST_CASE("a failed JobSet is a problem from the moment it failed until a day later", "[jobset][problems]") {
  // At the moment it failed.
  evaluated at_failure = evaluate("2026-11-29T10:00:00Z");
  const problem* failed = problem_named(at_failure.problems, "failed");
  REQUIRE(failed != nullptr);
  CHECK(failed->category == "jobset");
  CHECK(failed->finding_id == "failed");
  CHECK(failed->since == at("2026-11-29T10:00:00Z"));
  CHECK(failed->message ==
        "JobSet failed (ReachedMaxRestarts): jobset failed due to reaching max number of restarts (first failed job: "
        "failed-workers-1). Job failed-workers-1: BackoffLimitExceeded (Job has reached the specified backoff "
        "limit).");
  CHECK(failed->path == "/api/v1/jobset/jobsets/ml/failed");
  // The engine wakes when the day is over, to take it off (once nothing else is pending).
  evaluated later = evaluate("2026-11-29T12:00:00Z");
  REQUIRE(later.next_due);
  CHECK(*later.next_due == at("2026-11-30T10:00:00Z"));

  CHECK(problem_named(evaluate("2026-11-30T09:59:59Z").problems, "failed") != nullptr);
  CHECK(problem_named(evaluate("2026-11-30T10:00:00Z").problems, "failed") == nullptr);
  CHECK(problem_named(evaluate("2026-12-05T10:00:00Z").problems, "failed") == nullptr);
}

TEST_CASE("a running JobSet with at most one restart left is a problem", "[jobset][problems]") {
  evaluated now = evaluate("2026-11-29T12:00:00Z");
  const problem* one_left = problem_named(now.problems, "one-left");
  REQUIRE(one_left != nullptr);
  CHECK(one_left->finding_id == "restarts-nearly-exhausted");
  CHECK(one_left->message == "One restart left: the JobSet fails after one more restart (2 of maxRestarts 3 used).");
  CHECK(one_left->since == at("2026-11-29T11:00:00Z"));
  // Before v0.6 every restart counted: 3 of 3.
  const problem* none_left = problem_named(now.problems, "none-left");
  REQUIRE(none_left != nullptr);
  CHECK(none_left->message == "No restart left: the next failed Job fails the JobSet (3 of maxRestarts 3 used).");
  // Without RestartingJobSet, the last restart is when the current attempt's Jobs were made.
  CHECK(none_left->since == at("2026-11-29T10:30:00Z"));
  // Two left, no limit, suspended, completed: none.
  CHECK(problem_named(now.problems, "two-left") == nullptr);
  CHECK(problem_named(now.problems, "no-limit") == nullptr);
  CHECK(problem_named(now.problems, "suspended-at-limit") == nullptr);
  CHECK(problem_named(now.problems, "completed-at-limit") == nullptr);
}

TEST_CASE("a problem told for a while is current until its end, then no longer", "[problems]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml("apiVersion: v1\nkind: Node\nmetadata: {name: n1, uid: uid-n1}\n");
  finding told{"told", at("2026-11-29T11:00:00Z"), std::chrono::seconds{600}, "for two hours"};
  told.shown_for = std::chrono::hours{2};
  problem_rule rule{"test", core::node_kind,
                    [told](const cached_object&, const view_context&) { return std::vector<finding>{told}; }};
  problem_engine engine({problem_category{"test", "Test", true}}, {rule});
  view_context context = cluster.context();
  context.now = at("2026-11-29T11:05:00Z");
  CHECK(engine.evaluate(context) == at("2026-11-29T11:10:00Z"));  // pending: due at the threshold
  CHECK(engine.current().empty());
  context.now = at("2026-11-29T12:00:00Z");
  CHECK(engine.evaluate(context) == at("2026-11-29T13:00:00Z"));  // current: wakes at its end
  CHECK(engine.current().size() == 1);
  context.now = at("2026-11-29T13:00:00Z");
  CHECK(engine.evaluate(context) == std::nullopt);
  CHECK(engine.current().empty());
}
