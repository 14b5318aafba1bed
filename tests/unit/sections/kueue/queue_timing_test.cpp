// Since when a queue or a Workload has been in trouble, read the way Kueue v0.19.2 writes its
// conditions: with SetStatusCondition, which keeps lastTransitionTime while only the reason
// changes (k8s.io/apimachinery meta.SetStatusCondition; Kueue's callers below). A queue's stop
// lifted, a queue broken under a Workload already waiting, a queue repaired under one: each changes
// a reason and keeps an older time.
#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"
#include "support/problems_harness.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::at;
using sextant::testing::fixture_cluster;
using sextant::testing::problem_of;
using sextant::testing::problems_harness;

namespace {

// One engine kept across evaluations, as the daemon keeps it: first sightings carry over. The
// problems of the last evaluation are kept until the next, so pointers into them stay valid.
struct judge {
  problems_harness harness{make_section()};

  explicit judge(bool workloads_on = true) {
    harness.engine().set_enabled(std::string(workloads_category), workloads_on);
  }

  const std::vector<problem>& at_time(fixture_cluster& cluster, const char* when) {
    view_context context = cluster.context();
    context.now = at(when);
    return harness.evaluate(context);
  }
};

// A Cluster Queue stopped while a flavor it names is missing, in either order, as Kueue writes it:
// the stop's reason first, every fault in the message (pkg/cache/scheduler/clusterqueue.go:317-318,
// 363). Generation 2: the stop was set after it was made.
const char* stopped_and_misconfigured = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: gpu-a, uid: u-gpu-a, generation: 2, creationTimestamp: "2026-11-29T08:00:00Z"}
spec:
  stopPolicy: Hold
  resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors: [{name: h100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]}]
status:
  conditions:
  - {type: Active, status: "False", reason: Stopped, message: "Can't admit new workloads: is stopped, references missing ResourceFlavor(s): [h100].", observedGeneration: 2, lastTransitionTime: "2026-11-29T09:00:00Z"}
)";

// The same queue once the stop is lifted (generation 3): Kueue changes the reason and message and
// keeps the time the stop began (clusterqueue_controller.go:538).
const char* stop_lifted = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: gpu-a, uid: u-gpu-a, generation: 3, creationTimestamp: "2026-11-29T08:00:00Z"}
spec:
  resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors: [{name: h100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]}]
status:
  conditions:
  - {type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [h100].", observedGeneration: 3, lastTransitionTime: "2026-11-29T09:00:00Z"}
)";

}  // namespace

TEST_CASE("a Cluster Queue stopped and misconfigured is inactive for its fault, a problem before and after the lift",
          "[kueue][queues][problems]") {
  fixture_cluster cluster;
  cluster.load_yaml(stopped_and_misconfigured);
  judge problems;
  object_state stopped =
      cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "gpu-a"), cluster.context());
  // Inactive for another reason than the stop (the spec's kueue-queues row), though Kueue's
  // reason is the stop's: it writes only the first of its reasons.
  CHECK(stopped.label == "Inactive");
  CHECK(stopped.reason == "Stopped");
  CHECK_THAT(stopped.message, Catch::StartsWith("Can't admit new workloads: is stopped, references missing "
                                                "ResourceFlavor(s): [h100]."));
  CHECK_THAT(stopped.message, Catch::Contains("stays inactive when the stop is lifted"));
  // Generation 2: the stop may have come after the fault, or the fault after the stop; the
  // transition time tells neither, so the daemon's first sighting starts the 2 minutes.
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:00:00Z"), cluster_queue_kind, "gpu-a", "inactive") ==
        nullptr);
  const problem* while_stopped =
      problem_of(problems.at_time(cluster, "2026-11-29T10:02:00Z"), cluster_queue_kind, "gpu-a", "inactive");
  REQUIRE(while_stopped != nullptr);
  CHECK(format_rfc3339(while_stopped->since) == "2026-11-29T10:00:00Z");
  CHECK_THAT(while_stopped->message, Catch::Contains("references missing ResourceFlavor(s): [h100]"));

  // A stop alone is no fault: Stopped, no problem however long.
  fixture_cluster plain;
  plain.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: held, generation: 2}
spec: {stopPolicy: Hold}
status:
  conditions:
  - {type: Active, status: "False", reason: Stopped, message: "Can't admit new workloads: is stopped.", lastTransitionTime: "2026-11-29T09:00:00Z"}
)");
  object_state held = cluster_queue_state(*plain.get("kueue.x-k8s.io", "ClusterQueue", "", "held"), plain.context());
  CHECK(held.label == "Stopped");
  CHECK(held.message == "Can't admit new workloads: is stopped.");
  judge plain_problems;
  CHECK(problem_of(plain_problems.at_time(plain, "2026-11-29T09:00:00Z"), cluster_queue_kind, "held", "inactive") ==
        nullptr);
  CHECK(problem_of(plain_problems.at_time(plain, "2026-11-29T12:00:00Z"), cluster_queue_kind, "held", "inactive") ==
        nullptr);

  // The stop is lifted: the same fault under Kueue's next reason, still the same problem.
  cluster.load_yaml(stop_lifted);
  object_state lifted =
      cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "gpu-a"), cluster.context());
  CHECK(lifted.label == "Inactive");
  CHECK(lifted.reason == "FlavorNotFound");
  const problem* inactive =
      problem_of(problems.at_time(cluster, "2026-11-29T10:05:00Z"), cluster_queue_kind, "gpu-a", "inactive");
  REQUIRE(inactive != nullptr);
  CHECK(format_rfc3339(inactive->since) == "2026-11-29T10:00:00Z");

  // A daemon started after the lift cannot tell when the fault began: it counts from its first
  // sight, not from the stop's time Kueue kept (clusterqueue_controller.go:538).
  judge restarted;
  CHECK(problem_of(restarted.at_time(cluster, "2026-11-29T11:00:00Z"), cluster_queue_kind, "gpu-a", "inactive") ==
        nullptr);
  CHECK(problem_of(restarted.at_time(cluster, "2026-11-29T11:02:00Z"), cluster_queue_kind, "gpu-a", "inactive") !=
        nullptr);
}

TEST_CASE("a Workload under a Cluster Queue stopped and misconfigured is held by a queue Kueue cannot use",
          "[kueue][workloads][problems]") {
  fixture_cluster cluster;
  cluster.load_yaml(stopped_and_misconfigured);
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team, namespace: ml, generation: 1}
spec: {clusterQueue: gpu-a}
status:
  conditions:
  - {type: Active, status: "False", reason: ClusterQueueIsInactive, message: "Can't submit new workloads to clusterQueue", observedGeneration: 1, lastTransitionTime: "2026-11-29T09:00:00Z"}
)");
  load(cluster, {workload(v1beta2, "ml", "train", "team",
                          {condition("QuotaReserved", "False", "Pending", "ClusterQueue gpu-a is inactive",
                                     "2026-11-29T08:30:00Z")})});
  workload_reading reading =
      read_workload(*cluster.get("kueue.x-k8s.io", "Workload", "ml", "train"), cluster.context());
  CHECK(reading.state.label == "Inadmissible");
  REQUIRE(reading.held_by);
  CHECK_FALSE(reading.held_by->on_purpose());
  CHECK_THAT(reading.state.message, Catch::StartsWith("Waits because its Cluster Queue gpu-a is inactive: Can't "
                                                      "admit new workloads: is stopped, references missing"));
  judge problems;
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:00:00Z"), workload_kind, "train", "inadmissible") ==
        nullptr);
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:05:00Z"), workload_kind, "train", "inadmissible") !=
        nullptr);
}

TEST_CASE("a queue whose spec was never edited is dated from its Active condition", "[kueue][queues][problems]") {
  // Generation 1: no stop can have been lifted, so the transition is the fault's own.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: never-edited, generation: 1}
status:
  conditions:
  - {type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [a100].", observedGeneration: 1, lastTransitionTime: "2026-11-29T09:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: orphan, namespace: ml, generation: 1}
spec: {clusterQueue: gone}
status:
  conditions:
  - {type: Active, status: "False", reason: ClusterQueueDoesNotExist, message: "Can't submit new workloads to clusterQueue", observedGeneration: 1, lastTransitionTime: "2026-11-29T09:00:00Z"}
)");
  judge problems;
  auto found = problems.at_time(cluster, "2026-11-29T10:00:00Z");
  const problem* cluster_queue = problem_of(found, cluster_queue_kind, "never-edited", "inactive");
  REQUIRE(cluster_queue != nullptr);
  CHECK(format_rfc3339(cluster_queue->since) == "2026-11-29T09:00:00Z");
  const problem* local_queue = problem_of(found, local_queue_kind, "orphan", "cluster-queue-missing");
  REQUIRE(local_queue != nullptr);
  CHECK(format_rfc3339(local_queue->since) == "2026-11-29T09:00:00Z");
}

TEST_CASE("a Local Queue whose stop is lifted while its Cluster Queue is missing is timed from then",
          "[kueue][queues][problems]") {
  // Kueue checks the stop first and writes Stopped whatever the Cluster Queue
  // (localqueue_controller.go:194-196); once lifted, ClusterQueueDoesNotExist (:200-202), through
  // SetStatusCondition (:686), which keeps the stop's time.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: paused, namespace: ml, generation: 2}
spec: {clusterQueue: gone, stopPolicy: Hold}
status:
  conditions:
  - {type: Active, status: "False", reason: Stopped, message: LocalQueue is stopped, observedGeneration: 2, lastTransitionTime: "2026-11-29T09:00:00Z"}
)");
  judge problems;
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:00:00Z"), local_queue_kind, "paused",
                   "cluster-queue-missing") == nullptr);
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: paused, namespace: ml, generation: 3}
spec: {clusterQueue: gone}
status:
  conditions:
  - {type: Active, status: "False", reason: ClusterQueueDoesNotExist, message: "Can't submit new workloads to clusterQueue", observedGeneration: 3, lastTransitionTime: "2026-11-29T09:00:00Z"}
)");
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:30:00Z"), local_queue_kind, "paused",
                   "cluster-queue-missing") == nullptr);
  const problem* missing = problem_of(problems.at_time(cluster, "2026-11-29T10:32:00Z"), local_queue_kind, "paused",
                                      "cluster-queue-missing");
  REQUIRE(missing != nullptr);
  CHECK(format_rfc3339(missing->since) == "2026-11-29T10:30:00Z");
}

TEST_CASE(
    "inadmissible for 5 minutes counts from when the blocking queue broke, not from when the Workload began "
    "waiting",
    "[kueue][workloads][problems]") {
  // The Workload waited for quota from 09:00; its Cluster Queue lost a flavor at 10:00. Kueue
  // rewrites QuotaReserved=False with reason Inadmissible and keeps the 09:00 transition
  // (pkg/workload/workload.go:794-803, UnsetQuotaReservationWithCondition); the queue's own Active
  // condition turned False at 10:00.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: broken, generation: 1}
status:
  conditions:
  - {type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [h100].", observedGeneration: 1, lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team, namespace: ml, generation: 1}
spec: {clusterQueue: broken}
status:
  conditions:
  - {type: Active, status: "False", reason: ClusterQueueIsInactive, message: "Can't submit new workloads to clusterQueue", observedGeneration: 1, lastTransitionTime: "2026-11-29T10:00:00Z"}
)");
  for (const char* reason : {"Inadmissible", "Suspended"}) {  // without and with UnadmittedWorkloadsObservability
    load(cluster, {workload(v1beta2, "ml", std::string("train-") + reason, "team",
                            {condition("QuotaReserved", "False", reason, "ClusterQueue broken is inactive",
                                       "2026-11-29T09:00:00Z")})});
  }
  judge problems;
  auto early = problems.at_time(cluster, "2026-11-29T10:04:00Z");
  CHECK(problem_of(early, workload_kind, "train-Inadmissible", "inadmissible") == nullptr);
  CHECK(problem_of(early, workload_kind, "train-Suspended", "inadmissible") == nullptr);
  auto later = problems.at_time(cluster, "2026-11-29T10:05:00Z");
  for (const char* name : {"train-Inadmissible", "train-Suspended"}) {
    const problem* inadmissible = problem_of(later, workload_kind, name, "inadmissible");
    INFO(name);
    REQUIRE(inadmissible != nullptr);
    CHECK(format_rfc3339(inadmissible->since) == "2026-11-29T10:00:00Z");
  }
  // The Workload still says when it began waiting: that is its own story.
  details_view view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", "ml", "train-Inadmissible"), cluster.context(), view);
  CHECK(view.blocks["waiting"]["since"] == "2026-11-29T09:00:00Z");

  // A Workload made after the queue broke counts from its own wait.
  load(cluster, {workload(v1beta2, "ml", "late", "team",
                          {condition("QuotaReserved", "False", "Inadmissible", "ClusterQueue broken is inactive",
                                     "2026-11-29T10:30:00Z")})});
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:34:00Z"), workload_kind, "late", "inadmissible") ==
        nullptr);
  const problem* late =
      problem_of(problems.at_time(cluster, "2026-11-29T10:35:00Z"), workload_kind, "late", "inadmissible");
  REQUIRE(late != nullptr);
  CHECK(format_rfc3339(late->since) == "2026-11-29T10:30:00Z");
}

TEST_CASE("a Workload held by a Cohort cycle or a missing queue is timed from the daemon's first sight",
          "[kueue][workloads][problems]") {
  // Neither a cycle (Kueue keeps Active=True, pkg/cache/scheduler/snapshot.go:278-279) nor a
  // missing Local Queue leaves a time of its own, and the Workload's keeps the older wait's.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cycling, generation: 1}
spec: {cohortName: loop}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T08:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-cycle, namespace: ml, generation: 1}
spec: {clusterQueue: cycling}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T08:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: loop}
spec: {parentName: loop-b}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: loop-b}
spec: {parentName: loop}
)");
  load(cluster, {workload(v1beta2, "ml", "cycled", "to-cycle",
                          {condition("QuotaReserved", "False", "Pending", "ClusterQueue cycling is inactive",
                                     "2026-11-29T09:00:00Z")}),
                 workload(v1beta2, "ml", "lost", "no-such-queue",
                          {condition("QuotaReserved", "False", "Inadmissible", "LocalQueue no-such-queue doesn't exist",
                                     "2026-11-29T09:00:00Z")})});
  judge problems;
  auto first = problems.at_time(cluster, "2026-11-29T10:00:00Z");
  CHECK(problem_of(first, workload_kind, "cycled", "inadmissible") == nullptr);
  CHECK(problem_of(first, workload_kind, "lost", "inadmissible") == nullptr);
  auto later = problems.at_time(cluster, "2026-11-29T10:05:00Z");
  REQUIRE(problem_of(later, workload_kind, "cycled", "inadmissible") != nullptr);
  CHECK(format_rfc3339(problem_of(later, workload_kind, "cycled", "inadmissible")->since) == "2026-11-29T10:00:00Z");
  REQUIRE(problem_of(later, workload_kind, "lost", "inadmissible") != nullptr);
}

TEST_CASE("waiting for quota counts from when its queues became active again", "[kueue][workloads][problems]") {
  // Waiting since 09:00; its Cluster Queue was stopped and restarted at 10:00. Kueue turns the
  // reason back to Pending and keeps 09:00 (scheduler.go:1172-1175 through
  // UnsetQuotaReservationWithCondition); the queue's Active=True transition is 10:00.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: restarted, generation: 3}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T10:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team, namespace: ml}
spec: {clusterQueue: restarted}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T10:00:00Z"}]
)");
  load(cluster, {workload(v1beta2, "ml", "big", "team",
                          {condition("QuotaReserved", "False", "Pending",
                                     "couldn't assign flavors to pod set main: insufficient unused quota for cpu in "
                                     "flavor default, 4 more needed",
                                     "2026-11-29T09:00:00Z")})});
  judge problems;
  CHECK(problem_of(problems.at_time(cluster, "2026-11-29T10:29:00Z"), workload_kind, "big", "waiting-for-quota") ==
        nullptr);
  const problem* waiting =
      problem_of(problems.at_time(cluster, "2026-11-29T10:30:00Z"), workload_kind, "big", "waiting-for-quota");
  REQUIRE(waiting != nullptr);
  CHECK(format_rfc3339(waiting->since) == "2026-11-29T10:00:00Z");
}

TEST_CASE("a stopped Local Queue says when its Cluster Queue keeps it inactive after the stop", "[kueue][queues]") {
  // Kueue writes "LocalQueue is stopped" before it looks at the Cluster Queue
  // (localqueue_controller.go:194-196): the fault behind the stop is read from the Cluster Queue.
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: broken}
status:
  conditions: [{type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [h100].", lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: paused-on-broken, namespace: ml}
spec: {clusterQueue: broken, stopPolicy: Hold}
status:
  conditions: [{type: Active, status: "False", reason: Stopped, message: LocalQueue is stopped, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: paused-on-nothing, namespace: ml}
spec: {clusterQueue: gone, stopPolicy: Hold}
status:
  conditions: [{type: Active, status: "False", reason: Stopped, message: LocalQueue is stopped, lastTransitionTime: "2026-11-29T09:00:00Z"}]
)");
  auto state = [&cluster](const char* name) {
    return local_queue_state(*cluster.get("kueue.x-k8s.io", "LocalQueue", "ml", name), cluster.context());
  };
  CHECK(state("paused-on-broken").label == "Stopped");
  CHECK(state("paused-on-broken").message ==
        "LocalQueue is stopped. It stays inactive when the stop is lifted: its Cluster Queue broken is inactive.");
  // Whether the Cluster Queue exists cannot be told until every Cluster Queue is read.
  CHECK(state("paused-on-nothing").message == "LocalQueue is stopped");
  mark_complete(cluster);
  CHECK(state("paused-on-nothing").message ==
        "LocalQueue is stopped. It stays inactive when the stop is lifted: its Cluster Queue gone does not exist.");
}
