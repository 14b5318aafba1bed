// Restarts against maxRestarts as JobSet v0.12.0 counts them, and when "a running one with at
// most one restart left" holds. Objects written from the v0.12.0 JobSet CRD as its controller
// writes them.
#include <catch2/catch.hpp>

#include "jobset_test_support.hpp"
#include "problems/problem_engine.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

// RestartJob recreates one Job and bumps replicatedJobsStatus[].jobRestarts and
// jobRestartsCountTowardsMax for its index; RestartJobAndIgnoreMaxRestarts bumps jobRestarts only
// (pkg/controllers/failure_policy.go:300-391). Every restart action checks
// restartsCountTowardsMax + sum(jobRestartsCountTowardsMax) against maxRestarts
// (failure_policy.go:226, 350, 548-550; api/jobset/v1alpha2/jobset_types.go:416-427).
const char* restarted_jobs = R"yaml(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: job-restarts, namespace: ml, uid: uid-job-restarts, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy:
    maxRestarts: 3
    rules: [{name: retryOne, action: RestartJob, onJobFailureReasons: [PodFailurePolicy]}]
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 1
  restartsCountTowardsMax: 1
  replicatedJobsStatus:
  - {name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0, jobRestarts: [1, 0], jobRestartsCountTowardsMax: [1, 0]}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: ignored-job-restarts, namespace: ml, uid: uid-ignored-job-restarts, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy:
    maxRestarts: 3
    rules: [{name: retryOne, action: RestartJobAndIgnoreMaxRestarts}]
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  restarts: 1
  restartsCountTowardsMax: 1
  replicatedJobsStatus:
  - {name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0, jobRestarts: [2, 1]}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: job-restarts-workers-0
  namespace: ml
  uid: uid-job-restarts-workers-0
  creationTimestamp: "2026-11-29T10:40:00Z"
  labels: {jobset.sigs.k8s.io/jobset-name: job-restarts, jobset.sigs.k8s.io/restart-attempt: "1", jobset.sigs.k8s.io/job-restart-attempt: "1"}
status: {startTime: "2026-11-29T10:40:01Z", active: 1}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: job-restarts-workers-1
  namespace: ml
  uid: uid-job-restarts-workers-1
  creationTimestamp: "2026-11-29T10:00:00Z"
  labels: {jobset.sigs.k8s.io/jobset-name: job-restarts, jobset.sigs.k8s.io/restart-attempt: "1", jobset.sigs.k8s.io/job-restart-attempt: "0"}
status: {startTime: "2026-11-29T10:00:01Z", active: 1}
)yaml";

// A JobSet queued by Kueue for an hour and then started: Pending while no Job is active, Running
// once they are (the Jobs' own start times tell when).
const char* limit_of_one = R"yaml(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: pending-one, namespace: ml, uid: uid-pending-one, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 1}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  replicatedJobsStatus: [{name: workers, ready: 0, active: 0, succeeded: 0, failed: 0, suspended: 0}]
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: running-one, namespace: ml, uid: uid-running-one, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  failurePolicy: {maxRestarts: 1}
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]
  conditions:
  - {type: Suspended, status: "False", reason: ResumeJobs, message: jobset is resumed, lastTransitionTime: "2026-11-29T10:14:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: running-one-workers-0
  namespace: ml
  uid: uid-running-one-workers-0
  creationTimestamp: "2026-11-29T09:00:01Z"
  labels: {jobset.sigs.k8s.io/jobset-name: running-one, jobset.sigs.k8s.io/restart-attempt: "0"}
status: {startTime: "2026-11-29T10:15:00Z", active: 1}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: running-one-workers-1
  namespace: ml
  uid: uid-running-one-workers-1
  creationTimestamp: "2026-11-29T09:00:01Z"
  labels: {jobset.sigs.k8s.io/jobset-name: running-one, jobset.sigs.k8s.io/restart-attempt: "0"}
status: {startTime: "2026-11-29T10:15:02Z", active: 1}
)yaml";

std::vector<problem> problems_of(const char* yaml, const char* when) {
  fixture_cluster cluster(at(when));
  cluster.load_yaml(yaml);
  mark_children_read(cluster);
  section s = jobset::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(cluster.context());
  return engine.current();
}

}  // namespace

TEST_CASE("RestartJob's restarts count toward maxRestarts", "[jobset][restarts]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(restarted_jobs);
  mark_children_read(cluster);
  json counted = view_of(cluster, "ml", "job-restarts")["restarts"];
  CHECK(counted["total"] == 1);
  CHECK(counted["countingTowardsMax"] == 2);  // the global restart and Job 0's
  CHECK(counted["jobRestarts"] == json{{"total", 1}, {"countingTowardsMax", 1}});
  CHECK(counted["left"] == 1);
  // RestartJobAndIgnoreMaxRestarts recreates Jobs without counting them.
  json ignored = view_of(cluster, "ml", "ignored-job-restarts")["restarts"];
  CHECK(ignored["countingTowardsMax"] == 1);
  CHECK(ignored["jobRestarts"] == json{{"total", 3}, {"countingTowardsMax", 0}});
  CHECK(ignored["left"] == 2);

  auto found = problems_of(restarted_jobs, "2026-11-29T12:00:00Z");
  const problem* one_left = problem_named(found, "job-restarts");
  REQUIRE(one_left != nullptr);
  CHECK(one_left->message == "One restart left: the JobSet fails after one more restart (2 of maxRestarts 3 used).");
  // Since the last counted restart: Job 0 was made again at 10:40.
  CHECK(one_left->since == at("2026-11-29T10:40:00Z"));
  CHECK(problem_named(found, "ignored-job-restarts") == nullptr);
}

TEST_CASE("only a running JobSet is near its restart limit", "[jobset][problems]") {
  auto found = problems_of(limit_of_one, "2026-11-29T12:00:00Z");
  // Pending: no Job active yet, so no restart can be used up.
  CHECK(problem_named(found, "pending-one") == nullptr);
  const problem* running = problem_named(found, "running-one");
  REQUIRE(running != nullptr);
  CHECK(running->message == "One restart left: the JobSet fails after one more restart (0 of maxRestarts 1 used).");
  // Since it began running (its first Job started), not since it was made an hour before.
  CHECK(running->since == at("2026-11-29T10:15:00Z"));
}
