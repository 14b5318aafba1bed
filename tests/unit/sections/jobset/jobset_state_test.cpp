// One reading of a JobSet over every controller version the notes describe: before v0.6 (no
// restartsCountTowardsMax, no terminalState), v0.6-v0.11 (restarts seen through status.restarts
// and the restart-attempt label of the child Jobs) and v0.12+ (RestartingJobSet).
// Fixtures are written from the JobSet CRD schema (jobset.x-k8s.io/v1alpha2, jobset v0.12.0) and
// the controller's condition types, reasons and messages; they are our own files.
#include <catch2/catch.hpp>

#include "jobset_test_support.hpp"
#include "sections/jobset/jobset_reading.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster loaded(const std::string& yaml, bool children_read = true) {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(yaml);
  if (children_read) {
    mark_children_read(cluster);
  }
  return cluster;
}

// A JobSet with one replicated job of `replicas` Jobs, the given spec extras and status (YAML
// flow text inside `status:`).
std::string jobset_yaml(const std::string& name, const std::string& spec_extra, const std::string& status) {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: " + name + ", namespace: ml, uid: uid-" +
         name +
         ", creationTimestamp: \"2026-11-29T09:00:00Z\"}\n"
         "spec:\n  replicatedJobs:\n  - name: workers\n    replicas: 2\n    template: {spec: {template: {spec: "
         "{containers: [{name: c, image: busybox}]}}}}\n" +
         spec_extra + "status:\n" + status + "\n---\n";
}

std::string job_yaml(const std::string& jobset_name, const std::string& name, const std::string& attempt,
                     const std::string& status = "{}") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  namespace: ml\n  uid: uid-" + name +
         "\n  labels: {jobset.sigs.k8s.io/jobset-name: " + jobset_name + ", jobset.sigs.k8s.io/jobset-uid: uid-" +
         jobset_name + ", jobset.sigs.k8s.io/replicatedjob-name: workers, jobset.sigs.k8s.io/restart-attempt: \"" +
         attempt +
         "\"}\n  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: " + jobset_name +
         ", uid: uid-" + jobset_name + ", controller: true}]\nstatus: " + status + "\n---\n";
}

}  // namespace

TEST_CASE("a JobSet's state comes from its own conditions, in the controller's order", "[jobset]") {
  fixture_cluster cluster = loaded(
      jobset_yaml(
          "done", "",
          "  terminalState: Completed\n  conditions:\n  - {type: Completed, status: \"True\", reason: "
          "AllJobsCompleted, message: jobset completed successfully, lastTransitionTime: \"2026-11-29T10:00:00Z\"}") +
      jobset_yaml(
          "failed", "",
          "  terminalState: Failed\n  conditions:\n  - {type: Failed, status: \"True\", reason: FailedJobs, message: "
          "\"jobset failed due to one or more job failures (first failed job: failed-workers-1)\", "
          "lastTransitionTime: \"2026-11-29T10:00:00Z\"}") +
      jobset_yaml("held", "  suspend: true\n",
                  "  conditions:\n  - {type: Suspended, status: \"True\", reason: SuspendedJobs, message: jobset is "
                  "suspended, lastTransitionTime: \"2026-11-29T10:00:00Z\"}") +
      jobset_yaml(
          "resumed", "",
          "  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]\n"
          "  conditions:\n  - {type: Suspended, status: \"False\", reason: ResumeJobs, message: jobset is resumed, "
          "lastTransitionTime: \"2026-11-29T10:00:00Z\"}") +
      jobset_yaml("suspend-asked", "  suspend: true\n", "  {}") +
      jobset_yaml(
          "starting", "  startupPolicy: {startupPolicyOrder: InOrder}\n",
          "  replicatedJobsStatus: [{name: workers, ready: 0, active: 1, succeeded: 0, failed: 0, suspended: 0}]\n"
          "  conditions:\n  - {type: StartupPolicyInProgress, status: \"True\", reason: "
          "InOrderStartupPolicyInProgress, message: in order startup policy is in progress, lastTransitionTime: "
          "\"2026-11-29T10:00:00Z\"}") +
      jobset_yaml(
          "started", "  startupPolicy: {startupPolicyOrder: InOrder}\n",
          "  replicatedJobsStatus: [{name: workers, ready: 2, active: 2, succeeded: 0, failed: 0, suspended: 0}]\n"
          "  conditions:\n  - {type: StartupPolicyInProgress, status: \"False\", reason: "
          "InOrderStartupPolicyInProgress, message: in order startup policy is in progress, lastTransitionTime: "
          "\"2026-11-29T10:00:00Z\"}\n  - {type: StartupPolicyCompleted, status: \"True\", reason: "
          "InOrderStartupPolicyCompleted, message: in order startup policy has completed, lastTransitionTime: "
          "\"2026-11-29T10:05:00Z\"}") +
      jobset_yaml(
          "running", "",
          "  restarts: 0\n  replicatedJobsStatus: [{name: workers, ready: 1, active: 2, succeeded: 0, failed: 0, "
          "suspended: 0}]") +
      jobset_yaml("new", "", "  {}"));

  CHECK(label_of(cluster, "ml", "done") == "Completed");
  CHECK(view_of(cluster, "ml", "done")["state"]["reason"] == "AllJobsCompleted");
  CHECK(label_of(cluster, "ml", "failed") == "Failed");
  CHECK(view_of(cluster, "ml", "failed")["state"]["reason"] == "FailedJobs");
  CHECK(label_of(cluster, "ml", "held") == "Suspended");
  CHECK(label_of(cluster, "ml", "resumed") == "Running");
  json asked = view_of(cluster, "ml", "suspend-asked");
  CHECK(asked["state"]["label"] == "Suspended");
  CHECK(asked["state"]["message"] == "spec.suspend is true; the controller has not confirmed it yet.");
  json starting = view_of(cluster, "ml", "starting");
  CHECK(starting["state"]["label"] == "Starting");
  CHECK(starting["state"]["reason"] == "InOrderStartupPolicyInProgress");
  CHECK(starting["startupPolicy"] == "InOrder");
  CHECK(label_of(cluster, "ml", "started") == "Running");
  json running = view_of(cluster, "ml", "running");
  CHECK(running["state"]["label"] == "Running");
  CHECK(running["state"]["message"] == "2 Jobs active, 1 ready.");
  CHECK(label_of(cluster, "ml", "new") == "Pending");
}

TEST_CASE("a JobSet's terminal state reads from terminalState where a condition is missing", "[jobset]") {
  fixture_cluster cluster = loaded(jobset_yaml("done", "", "  terminalState: Completed") +
                                   jobset_yaml("failed", "", "  terminalState: Failed"));
  CHECK(label_of(cluster, "ml", "done") == "Completed");
  CHECK(label_of(cluster, "ml", "failed") == "Failed");
}

TEST_CASE("a restart shows as RestartingJobSet from v0.12 and through previous-attempt Jobs before", "[jobset]") {
  const std::string policy = "  failurePolicy: {maxRestarts: 3}\n";
  fixture_cluster cluster = loaded(
      // v0.12+: the condition says so, and names the Job that failed.
      jobset_yaml(
          "v12", policy,
          "  restarts: 1\n  restartsCountTowardsMax: 1\n  conditions:\n  - {type: RestartingJobSet, status: "
          "\"True\", reason: DefaultFailurePolicy, message: \"applying RestartJobSet failure policy action (first "
          "failed job: v12-workers-0)\", lastTransitionTime: \"2026-11-29T11:00:00Z\"}") +
      job_yaml(
          "v12", "v12-workers-0", "0",
          "{conditions: [{type: Failed, status: \"True\", reason: BackoffLimitExceeded, message: Job has reached the "
          "specified backoff limit}]}") +
      // v0.12+, restart done: the condition is False, an old Job still being deleted does not count.
      jobset_yaml(
          "v12-ready", policy,
          "  restarts: 1\n  restartsCountTowardsMax: 1\n  replicatedJobsStatus: [{name: workers, ready: 2, active: "
          "2, succeeded: 0, failed: 0, suspended: 0}]\n  conditions:\n  - {type: RestartingJobSet, status: "
          "\"False\", reason: JobsReady, message: all jobs are ready, lastTransitionTime: \"2026-11-29T11:05:00Z\"}") +
      job_yaml("v12-ready", "v12-ready-workers-0", "0") +
      // v0.6-v0.11: no condition; Jobs of attempt 0 remain while status.restarts is 1.
      jobset_yaml("v6", policy, "  restarts: 1\n  restartsCountTowardsMax: 1") + job_yaml("v6", "v6-workers-0", "0") +
      // v0.6-v0.11, restart done: every Job is of the current attempt.
      jobset_yaml(
          "v6-done", policy,
          "  restarts: 1\n  restartsCountTowardsMax: 1\n  replicatedJobsStatus: [{name: workers, ready: 2, active: "
          "2, succeeded: 0, failed: 0, suspended: 0}]") +
      job_yaml("v6-done", "v6-done-workers-0", "1") +
      // Before v0.6: the same through the label.
      jobset_yaml("v5", policy, "  restarts: 2") + job_yaml("v5", "v5-workers-0", "1"));

  json v12 = view_of(cluster, "ml", "v12");
  CHECK(v12["state"]["label"] == "Restarting");
  CHECK(v12["state"]["reason"] == "DefaultFailurePolicy");
  CHECK(v12["restarting"]["seenBy"] == "RestartingJobSet");
  CHECK(v12["failedJob"]["name"] == "v12-workers-0");
  CHECK(v12["failedJob"]["reason"] == "BackoffLimitExceeded");
  CHECK(label_of(cluster, "ml", "v12-ready") == "Running");
  json v6 = view_of(cluster, "ml", "v6");
  CHECK(v6["state"]["label"] == "Restarting");
  CHECK(v6["restarting"]["seenBy"] == "previous attempt Jobs");
  CHECK(label_of(cluster, "ml", "v6-done") == "Running");
  CHECK(label_of(cluster, "ml", "v5") == "Restarting");
}

TEST_CASE("restarts count toward maxRestarts by the rules of each controller version", "[jobset]") {
  fixture_cluster cluster =
      loaded(jobset_yaml("no-policy", "", "  restarts: 0") +
             jobset_yaml("empty-policy", "  failurePolicy: {}\n", "  restarts: 0") +
             jobset_yaml("v6-counted", "  failurePolicy:\n    maxRestarts: 3\n",
                         "  restarts: 3\n  restartsCountTowardsMax: 2") +
             jobset_yaml("v6-ignored",
                         "  failurePolicy:\n    maxRestarts: 3\n    rules:\n    - {name: preempted, action: "
                         "RestartJobSetAndIgnoreMaxRestarts, onJobFailureReasons: [PodFailurePolicy]}\n",
                         "  restarts: 2") +
             jobset_yaml("pre-v6", "  failurePolicy:\n    maxRestarts: 3\n", "  restarts: 2"));

  json none = view_of(cluster, "ml", "no-policy")["restarts"];
  CHECK(none["maxRestarts"].is_null());
  CHECK(none["left"].is_null());
  CHECK(none["limit"] == "none: no failure policy");
  CHECK(has_note_containing(view_of(cluster, "ml", "no-policy"), "there is no restart limit"));

  json empty = view_of(cluster, "ml", "empty-policy")["restarts"];
  CHECK(empty["maxRestarts"] == 0);
  CHECK(empty["left"] == 0);

  json counted = view_of(cluster, "ml", "v6-counted")["restarts"];
  CHECK(counted["total"] == 3);
  CHECK(counted["countingTowardsMax"] == 2);
  CHECK(counted["countedFrom"] == "restartsCountTowardsMax");
  CHECK(counted["left"] == 1);

  // A v0.6+ controller leaves restartsCountTowardsMax out while it is zero.
  json ignored = view_of(cluster, "ml", "v6-ignored")["restarts"];
  CHECK(ignored["countingTowardsMax"] == 0);
  CHECK(ignored["countedFrom"] == "none");
  CHECK(ignored["left"] == 3);

  // Before v0.6 every restart counted.
  json old = view_of(cluster, "ml", "pre-v6")["restarts"];
  CHECK(old["countingTowardsMax"] == 2);
  CHECK(old["countedFrom"] == "every restart");
  CHECK(old["left"] == 1);
}

TEST_CASE("a failed JobSet links the Job its message names, with that Job's own failure", "[jobset]") {
  const std::string failed_status =
      "  terminalState: Failed\n  conditions:\n  - {type: Failed, status: \"True\", reason: ReachedMaxRestarts, "
      "message: \"jobset failed due to reaching max number of restarts (first failed job: %-workers-1)\", "
      "lastTransitionTime: \"2026-11-29T10:00:00Z\"}";
  auto failed = [&failed_status](const std::string& name) {
    std::string status = failed_status;
    status.replace(status.find('%'), 1, name);
    return jobset_yaml(name, "  failurePolicy: {maxRestarts: 1}\n", status);
  };
  std::string yaml =
      failed("with-job") +
      job_yaml("with-job", "with-job-workers-1", "1",
               "{conditions: [{type: FailureTarget, status: \"True\", reason: PodFailurePolicy, message: "
               "\"Container main for pod ml/with-job-workers-1-0-x failed with exit code 42 matching "
               "FailJob rule at index 0\"}, {type: Failed, status: \"True\", reason: PodFailurePolicy, "
               "message: \"Container main for pod ml/with-job-workers-1-0-x failed with exit code 42 "
               "matching FailJob rule at index 0\"}]}") +
      failed("gone");

  fixture_cluster cluster = loaded(yaml);
  json view = view_of(cluster, "ml", "with-job");
  CHECK(view["failedJob"]["name"] == "with-job-workers-1");
  CHECK(view["failedJob"]["exists"] == true);
  CHECK(view["failedJob"]["reason"] == "PodFailurePolicy");
  CHECK(view["failedJob"]["path"] == "/api/v1/core/jobs/ml/with-job-workers-1");
  bool linked = false;
  for (const json& link : view["links"]) {
    linked = linked || (link["rel"] == "failed-job" && link["name"] == "with-job-workers-1");
  }
  CHECK(linked);

  json gone = view_of(cluster, "ml", "gone");
  CHECK(gone["failedJob"]["exists"] == false);
  CHECK(gone["failedJob"]["reason"].is_null());
  CHECK(has_note_containing(gone, "gone-workers-1, no longer exists"));

  fixture_cluster unread = loaded(failed("gone"), false);
  json unknown = view_of(unread, "ml", "gone");
  CHECK(unknown["failedJob"]["exists"] == "cannot tell");
  CHECK(has_note_containing(unknown, "cannot be told"));
}

TEST_CASE("the controller's messages name the first failed Job", "[jobset]") {
  CHECK(jobset::first_failed_job("jobset failed due to one or more job failures (first failed job: a-b-0)") == "a-b-0");
  CHECK(jobset::first_failed_job("applying FailJobSet failure policy action (first failed job: x)") == "x");
  CHECK(jobset::first_failed_job("jobset failed").empty());
  CHECK(jobset::first_failed_job("(first failed job: unterminated").empty());
}
