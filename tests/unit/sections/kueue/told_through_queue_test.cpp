#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

// Queues in every state a Workload can be held up by, from the ClusterQueue and LocalQueue CRDs.
const char* queues_holding_workloads = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: stopped-cq}
spec: {stopPolicy: Hold}
status:
  conditions: [{type: Active, status: "False", reason: Stopped, message: "Can't admit new workloads: is stopped.", lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: broken-cq}
status:
  conditions: [{type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [h100].", lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cycling-cq}
spec: {cohortName: loop}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-stopped, namespace: ml}
spec: {clusterQueue: stopped-cq}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-broken, namespace: ml}
spec: {clusterQueue: broken-cq}
status:
  conditions: [{type: Active, status: "False", reason: ClusterQueueIsInactive, message: "Can't submit new workloads to clusterQueue", lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-nowhere, namespace: ml}
spec: {clusterQueue: deleted-cq}
status:
  conditions: [{type: Active, status: "False", reason: ClusterQueueDoesNotExist, message: "Can't submit new workloads to clusterQueue", lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: paused, namespace: ml}
spec: {clusterQueue: cycling-cq, stopPolicy: HoldAndDrain}
status:
  conditions: [{type: Active, status: "False", reason: Stopped, message: LocalQueue is stopped, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-cycle, namespace: ml}
spec: {clusterQueue: cycling-cq}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T09:00:00Z"}]
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
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: unexplained-cq}
spec: {cohortName: not-read}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-unexplained, namespace: ml}
spec: {clusterQueue: unexplained-cq}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: healthy-cq}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: to-healthy, namespace: ml}
spec: {clusterQueue: healthy-cq}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T09:00:00Z"}]
)";

json blocked_by(fixture_cluster& cluster, const std::string& name, const std::string& queue, const std::string& reason,
                const std::string& message) {
  load(cluster, {workload("kueue.x-k8s.io/v1beta2", "ml", name, queue,
                          {condition("QuotaReserved", "False", reason, message, t0)})});
  details_view view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", "ml", name), cluster.context(), view);
  return view.blocks["waiting"]["blockedBy"];
}

object_state state_of(fixture_cluster& cluster, const std::string& name) {
  return workload_state(*cluster.get("kueue.x-k8s.io", "Workload", "ml", name), cluster.context());
}

}  // namespace

TEST_CASE("a Workload held up by its queue is told through the queue", "[kueue][workloads][queues]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_holding_workloads);

  // A stop is not the Workload's fault: Pending, told through the queue, whatever reason Kueue wrote.
  json stopped = blocked_by(cluster, "a", "to-stopped", "Inadmissible", "ClusterQueue stopped-cq is inactive");
  CHECK(stopped["kind"] == "ClusterQueue");
  CHECK(stopped["name"] == "stopped-cq");
  CHECK(stopped["path"] == "/api/v1/kueue/clusterqueues/stopped-cq");
  CHECK(stopped["state"]["label"] == "Stopped");
  CHECK(stopped["message"] == "Waits because its Cluster Queue stopped-cq is stopped (stopPolicy Hold).");
  object_state a = state_of(cluster, "a");
  CHECK(a.label == "Pending");
  CHECK(a.reason == "Inadmissible");
  CHECK(a.message == "Waits because its Cluster Queue stopped-cq is stopped (stopPolicy Hold).");

  // Inactive for a misconfiguration: Inadmissible, naming the queue and its own message.
  json broken = blocked_by(cluster, "b", "to-broken", "Inadmissible", "LocalQueue to-broken is inactive");
  CHECK(broken["name"] == "broken-cq");
  CHECK(broken["state"]["label"] == "Inactive");
  CHECK(broken["state"]["message"] == "Can't admit new workloads: references missing ResourceFlavor(s): [h100].");
  object_state b = state_of(cluster, "b");
  CHECK(b.label == "Inadmissible");
  CHECK(b.message ==
        "Waits because its Cluster Queue broken-cq is inactive: Can't admit new workloads: references missing "
        "ResourceFlavor(s): [h100].");

  json gone = blocked_by(cluster, "c", "to-nowhere", "Inadmissible", "LocalQueue to-nowhere is inactive");
  CHECK(gone["kind"] == "ClusterQueue");
  CHECK(gone["name"] == "deleted-cq");
  CHECK(gone["exists"] == false);
  CHECK(gone["state"].is_null());
  CHECK(gone["message"] == "Waits because its Cluster Queue deleted-cq does not exist.");
  CHECK(state_of(cluster, "c").label == "Inadmissible");

  json paused = blocked_by(cluster, "d", "paused", "Inadmissible", "LocalQueue paused is inactive");
  CHECK(paused["kind"] == "LocalQueue");
  CHECK(paused["namespace"] == "ml");
  CHECK(paused["state"]["label"] == "Stopped");
  CHECK(paused["message"] == "Waits because its Local Queue paused is stopped (stopPolicy HoldAndDrain).");
  CHECK(state_of(cluster, "d").label == "Pending");

  // Kueue's own word that the Local Queue is missing, even before the list is wholly read.
  json missing = blocked_by(cluster, "e", "user-queue", "Inadmissible", "LocalQueue user-queue doesn't exist");
  CHECK(missing["kind"] == "LocalQueue");
  CHECK(missing["exists"] == false);

  // Active by its condition, yet in a Cohort cycle: Inactive, the cycle named.
  json cycle = blocked_by(cluster, "f", "to-cycle", "Pending", "ClusterQueue cycling-cq is inactive");
  CHECK(cycle["name"] == "cycling-cq");
  CHECK(cycle["state"]["label"] == "Inactive");
  CHECK_THAT(cycle["message"].get<std::string>(),
             Catch::StartsWith("Waits because its Cluster Queue cycling-cq is inactive: Kueue admits no Workload from "
                               "it: its Cohort chain loops (loop → loop-b → loop)"));
  object_state f = state_of(cluster, "f");
  CHECK(f.label == "Inadmissible");  // held by a queue Kueue cannot use, whatever reason the scheduler wrote
  CHECK(f.reason == "Pending");
  CHECK_THAT(f.message, Catch::Contains("loop → loop-b → loop"));

  // Active, and no cycle among the Cohorts read, yet the scheduler calls it inactive: said as a maybe.
  json unexplained = blocked_by(cluster, "u", "to-unexplained", "Pending", "ClusterQueue unexplained-cq is inactive");
  CHECK(unexplained["state"]["label"] == "Active");
  CHECK_THAT(unexplained["message"].get<std::string>(), Catch::Contains("may have a cycle"));
  CHECK(state_of(cluster, "u").label == "Inadmissible");

  // A Workload waiting for quota in healthy queues is held by none.
  json none = blocked_by(
      cluster, "g", "to-healthy", "Pending",
      "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed");
  CHECK(none.is_null());
}

TEST_CASE("a Workload held by a Cohort cycle reads Inadmissible with or without UnadmittedWorkloadsObservability",
          "[kueue][workloads][queues]") {
  // The scheduler writes "ClusterQueue <cq> is inactive" for a queue under a cycle with the
  // reason the gate picks: Suspended with it, Pending without (pkg/scheduler/scheduler.go:677-679,
  // 1172; pkg/workload/workload.go:1626-1631). Both are the same wait: held by a queue Kueue
  // cannot use.
  fixture_cluster cluster;
  cluster.load_yaml(queues_holding_workloads);
  for (const char* reason : {"Pending", "Suspended"}) {
    const std::string name = std::string("cycle-") + reason;
    json blocker = blocked_by(cluster, name, "to-cycle", reason, "ClusterQueue cycling-cq is inactive");
    CHECK(blocker["name"] == "cycling-cq");
    object_state state = state_of(cluster, name);
    INFO(reason);
    CHECK(state.label == "Inadmissible");
    CHECK(state.reason == reason);
    CHECK_THAT(state.message, Catch::StartsWith("Waits because its Cluster Queue cycling-cq is inactive"));
  }
  // A stop reads Pending whichever reason the gate picks (workload_controller.go:1125-1129).
  for (const char* reason : {"Inadmissible", "Suspended"}) {
    const std::string name = std::string("stopped-") + reason;
    blocked_by(cluster, name, "to-stopped", reason, "ClusterQueue stopped-cq is stopped");
    INFO(reason);
    CHECK(state_of(cluster, name).label == "Pending");
  }
}

TEST_CASE("a Cluster Queue in a Cohort cycle is Inactive, on its page and its Cohort's", "[kueue][queues][cohorts]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_holding_workloads);
  view_context context = cluster.context();
  object_state state = cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cycling-cq"), context);
  CHECK(state.label == "Inactive");
  CHECK(state.reason.empty());
  CHECK_THAT(state.message, Catch::Contains("loop → loop-b → loop"));
  CHECK_THAT(state.message, Catch::Contains("Active condition stays True"));
  details_view cohort;
  cohort_details(*cluster.get("kueue.x-k8s.io", "Cohort", "", "loop"), context, cohort);
  REQUIRE(cohort.blocks["members"].size() == 1);
  CHECK(cohort.blocks["members"][0]["name"] == "cycling-cq");
  CHECK(cohort.blocks["members"][0]["state"] == "Inactive");
  // A chain that ends at a root, or at a Cohort not read, is no cycle.
  CHECK(cohort_loop("not-read", context).empty());
  CHECK(cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "unexplained-cq"), context).label ==
        "Active");
}

TEST_CASE("a Cluster Queue made under a Cohort cycle, which Kueue reports False with reason Ready, is the cycle's",
          "[kueue][queues][cohorts]") {
  // Kueue never evaluates a Cluster Queue made under a cycle (its cohort tree update fails first,
  // pkg/cache/scheduler/clusterqueue.go:161-165) and writes Active=False with an active queue's
  // reason and message (clusterqueue.go:365, cache.go:389-400 at v0.19.2); seen live in
  // tests/integration/kueue_live_test.cpp.
  fixture_cluster cluster;
  cluster.load_yaml(queues_holding_workloads);
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: made-in-cycle, generation: 1}
spec: {cohortName: loop}
status:
  conditions: [{type: Active, status: "False", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: never-evaluated, generation: 1}
spec: {cohortName: not-read}
status:
  conditions: [{type: Active, status: "False", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
)");
  view_context context = cluster.context();
  object_state made = cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "made-in-cycle"), context);
  CHECK(made.label == "Inactive");
  CHECK_THAT(made.message, Catch::Contains("loop → loop-b → loop"));
  CHECK_THAT(made.message, Catch::Contains("False with reason Ready"));
  object_state unexplained =
      cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "never-evaluated"), context);
  CHECK(unexplained.label == "Inactive");
  CHECK_THAT(unexplained.message, Catch::Contains("has not evaluated this queue"));
}

TEST_CASE("a Local Queue's details say whether its Cluster Queue exists", "[kueue][queues]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_holding_workloads);
  details_view view;
  local_queue_details(*cluster.get("kueue.x-k8s.io", "LocalQueue", "ml", "to-nowhere"), cluster.context(), view, {});
  CHECK(view.blocks["clusterQueueLink"]["exists"] == false);
  details_view unknown;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: fresh, namespace: ml}
spec: {clusterQueue: not-yet-read}
)");
  local_queue_details(*cluster.get("kueue.x-k8s.io", "LocalQueue", "ml", "fresh"), cluster.context(), unknown, {});
  // Not read yet: the one exists rule says so in words, as every view does (it was null).
  CHECK(unknown.blocks["clusterQueueLink"]["exists"] == "cannot tell");
}

TEST_CASE("priority reads v1beta2 priorityClassRef and v1beta1 priorityClassName", "[kueue][workloads]") {
  fixture_cluster cluster;
  load(cluster, {workload("kueue.x-k8s.io/v1beta1", "ml", "old", "q", json::array(), json::object(),
                          {{"priority", 10},
                           {"priorityClassName", "high"},
                           {"priorityClassSource", "scheduling.k8s.io/priorityclass"}}),
                 workload("kueue.x-k8s.io/v1beta2", "ml", "new", "q", json::array(), json::object(),
                          {{"priority", 20},
                           {"priorityClassRef",
                            {{"group", "kueue.x-k8s.io"}, {"kind", "WorkloadPriorityClass"}, {"name", "high"}}}})});
  details_view old_view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", "ml", "old"), cluster.context(), old_view);
  CHECK(old_view.blocks["priorityClass"]["className"] == "high");
  CHECK(old_view.blocks["priorityClass"]["classKind"] == "PriorityClass");
  details_view new_view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", "ml", "new"), cluster.context(), new_view);
  CHECK(new_view.blocks["priorityClass"]["classKind"] == "WorkloadPriorityClass");
  CHECK(new_view.blocks["priorityClass"]["value"] == 20);
}
