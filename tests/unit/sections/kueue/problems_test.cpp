#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include "kueue_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "runtime/section_catalog.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "support/problems_harness.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::at;
using sextant::testing::fixture_cluster;
using sextant::testing::problem_of;
using sextant::testing::problems_harness;

namespace {

std::vector<problem> evaluate(fixture_cluster& cluster, bool workloads_on, const std::string& when) {
  problems_harness harness(make_section());
  harness.engine().set_enabled(std::string(workloads_category), workloads_on);
  return harness.evaluate_at(cluster, when.c_str());
}

const char* queues_in_every_state = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: no-flavor}
status:
  conditions:
  - {type: Active, status: "False", reason: FlavorNotFound, message: "Can't admit new workloads: references missing ResourceFlavor(s): [a100].", lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: held}
spec: {stopPolicy: HoldAndDrain}
status:
  conditions:
  - {type: Active, status: "False", reason: Stopped, message: "Can't admit new workloads: is stopped.", lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: fine}
status:
  conditions:
  - {type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: dangling, namespace: ml}
spec: {clusterQueue: nowhere}
status:
  conditions:
  - {type: Active, status: "False", reason: ClusterQueueDoesNotExist, message: "Can't submit new workloads to clusterQueue", lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: ok, namespace: ml}
spec: {clusterQueue: fine}
status:
  conditions:
  - {type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: stopped-lq, namespace: ml}
spec: {clusterQueue: held}
status:
  conditions:
  - {type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T10:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: unreported, namespace: ml}
spec: {clusterQueue: ghost}
)";

}  // namespace

TEST_CASE("the Kueue categories: queues on by default, Workloads off", "[kueue][problems]") {
  section s = make_section();
  REQUIRE(s.categories.size() == 2);
  CHECK(s.categories[0].id == "kueue-queues");
  CHECK(s.categories[0].enabled_by_default);
  CHECK(s.categories[1].id == "kueue-workloads");
  CHECK(s.categories[1].title == "Kueue Workloads");
  CHECK_FALSE(s.categories[1].enabled_by_default);
  for (const resource_def& r : s.resources) {
    if (r.id == "workloads") {
      CHECK(r.on_demand_category == "kueue-workloads");
      CHECK(r.cap == 5000);
    }
  }
  // Workloads are read on demand: the queues' details, which read them, ask for them as they
  // render (tests/unit/api/api_router_test.cpp).
  const section_catalog catalog(sextant::testing::registered_sections());
  CHECK(catalog.read_on_demand(workload_kind));
}

TEST_CASE("an inactive Cluster Queue and a Local Queue without its Cluster Queue, after 2 minutes",
          "[kueue][problems]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_in_every_state);
  auto early = evaluate(cluster, false, "2026-11-29T10:01:59Z");
  CHECK(early.empty());
  auto later = evaluate(cluster, false, "2026-11-29T10:02:00Z");
  CHECK(problem_of(later, cluster_queue_kind, "no-flavor", "inactive") != nullptr);
  CHECK(problem_of(later, local_queue_kind, "dangling", "cluster-queue-missing") != nullptr);
  CHECK(problem_of(later, cluster_queue_kind, "held", "inactive") == nullptr);  // a stop is no fault
  CHECK(problem_of(later, cluster_queue_kind, "fine", "inactive") == nullptr);
  CHECK(problem_of(later, local_queue_kind, "ok", "cluster-queue-missing") == nullptr);
  // Kueue has not spoken and the Cluster Queue list is not known whole: no guess.
  CHECK(problem_of(later, local_queue_kind, "unreported", "cluster-queue-missing") == nullptr);
  const problem* inactive = problem_of(later, cluster_queue_kind, "no-flavor");
  REQUIRE(inactive != nullptr);
  CHECK(inactive->category == "kueue-queues");
  CHECK(format_rfc3339(inactive->since) == "2026-11-29T10:00:00Z");
  CHECK_THAT(inactive->message, Catch::Contains("references missing ResourceFlavor(s): [a100]"));

  // With every Cluster Queue read, a missing one is known even before Kueue says so: from when
  // the daemon first saw it missing.
  mark_complete(cluster);
  section s = make_section();
  problem_engine engine(s.categories, s.rules);
  view_context context = cluster.context();
  context.now = at("2026-11-29T10:02:00Z");
  engine.evaluate(context);
  CHECK(problem_of(engine.current(), local_queue_kind, "unreported", "cluster-queue-missing") == nullptr);
  context.now = at("2026-11-29T10:04:00Z");
  engine.evaluate(context);
  CHECK(problem_of(engine.current(), local_queue_kind, "unreported", "cluster-queue-missing") != nullptr);
}

TEST_CASE("Workload problems: quota 30 min, inadmissible 5 min, 3 evictions, Kueue's deactivation",
          "[kueue][problems]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_in_every_state);
  json evicted_stats = {{"schedulingStats",
                         {{"evictions",
                           {{{"reason", "Preempted"}, {"underlyingCause", ""}, {"count", 2}},
                            {{"reason", "PodsReadyTimeout"}, {"underlyingCause", "WaitForStart"}, {"count", 1}}}}}}};
  load(cluster,
       {workload(v1beta2, "ml", "quota", "ok",
                 {condition("QuotaReserved", "False", "Pending",
                            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
                            "default, 2 more needed",
                            t0)}),
        workload(v1beta2, "ml", "lost", "missing-lq",
                 {condition("QuotaReserved", "False", "Inadmissible", "LocalQueue missing-lq doesn't exist", t0)}),
        workload(v1beta2, "ml", "bounced", "ok",
                 {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue fine", t0),
                  condition("Admitted", "True", "Admitted", "The workload is admitted", t0),
                  condition("Evicted", "False", "QuotaReserved", "Previously: Preempted", t0)},
                 evicted_stats),
        workload(
            v1beta2, "ml", "kueue-off", "ok",
            {condition("Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded",
                       "The workload is deactivated due to exceeding the maximum number of re-queuing retries", t0)},
            json::object(), {{"active", false}}),
        workload(v1beta2, "ml", "person-off", "ok",
                 {condition("Evicted", "True", "Deactivated", "The workload is deactivated", t0)}, json::object(),
                 {{"active", false}}),
        workload(v1beta2, "ml", "held-back", "stopped-lq",
                 {condition("QuotaReserved", "False", "Inadmissible", "ClusterQueue held is stopped", t0)}),
        workload(v1beta2, "ml", "finished", "ok",
                 {condition("Finished", "True", "Failed", "Job has reached the specified backoff limit", t0)},
                 evicted_stats)});
  mark_complete(cluster);

  SECTION("off by default: nothing judged") {
    auto problems = evaluate(cluster, false, "2026-11-29T12:00:00Z");
    for (const problem& p : problems) {
      CHECK(p.category == "kueue-queues");
    }
  }
  SECTION("at once: evictions and Kueue's deactivation; not a person's") {
    auto problems = evaluate(cluster, true, "2026-11-29T10:00:00Z");
    CHECK(problem_of(problems, workload_kind, "bounced", "evicted-repeatedly") != nullptr);
    CHECK(problem_of(problems, workload_kind, "kueue-off", "deactivated-by-kueue") != nullptr);
    CHECK(problem_of(problems, workload_kind, "person-off", "deactivated-by-kueue") == nullptr);
    CHECK(problem_of(problems, workload_kind, "person-off") == nullptr);
    CHECK(problem_of(problems, workload_kind, "lost", "inadmissible") == nullptr);
    CHECK(problem_of(problems, workload_kind, "finished") == nullptr);
    const problem* bounced = problem_of(problems, workload_kind, "bounced");
    REQUIRE(bounced != nullptr);
    CHECK(bounced->message == "Evicted 3 times so far: Preempted ×2, PodsReadyTimeout (WaitForStart) ×1.");
  }
  SECTION("inadmissible after 5 minutes, told through the queue") {
    // A missing Local Queue leaves no time of its own, and the Workload's may be an older wait's:
    // from the daemon's first sight.
    section s = make_section();
    problem_engine engine(s.categories, s.rules);
    engine.set_enabled(std::string(workloads_category), true);
    view_context context = cluster.context();
    context.now = at("2026-11-29T10:00:00Z");
    engine.evaluate(context);
    context.now = at("2026-11-29T10:04:59Z");
    engine.evaluate(context);
    CHECK(problem_of(engine.current(), workload_kind, "lost", "inadmissible") == nullptr);
    context.now = at("2026-11-29T10:05:00Z");
    engine.evaluate(context);
    auto after = engine.current();
    REQUIRE(problem_of(after, workload_kind, "lost", "inadmissible") != nullptr);
    CHECK(problem_of(after, workload_kind, "lost")->message ==
          "Waits because its Local Queue missing-lq does not exist.");
    CHECK(problem_of(after, workload_kind, "quota", "waiting-for-quota") == nullptr);
    // A Workload held by a stopped queue has no problem: the stop is someone's decision.
    CHECK(problem_of(after, workload_kind, "held-back") == nullptr);
  }
  SECTION("waiting for quota after 30 minutes, in Kueue's words") {
    CHECK(problem_of(evaluate(cluster, true, "2026-11-29T10:29:59Z"), workload_kind, "quota", "waiting-for-quota") ==
          nullptr);
    auto after = evaluate(cluster, true, "2026-11-29T10:30:00Z");
    REQUIRE(problem_of(after, workload_kind, "quota", "waiting-for-quota") != nullptr);
    CHECK(problem_of(after, workload_kind, "quota")->message ==
          "Waiting for quota in Cluster Queue fine: couldn't assign flavors to pod set main: insufficient unused quota "
          "for cpu in flavor default, 2 more needed");
  }
}

TEST_CASE("a Cluster Queue in a Cohort cycle is a kueue-queues problem 2 minutes after it is first seen",
          "[kueue][problems][cohorts]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: left}
spec: {parentName: right}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: right}
spec: {parentName: left}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: looping}
spec: {cohortName: left}
status:
  conditions:
  - {type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T08:00:00Z"}
)");
  section s = make_section();
  problem_engine engine(s.categories, s.rules);
  view_context context = cluster.context();
  // Kueue's Active=True is hours old, but nothing tells when the cycle began: the first sighting does.
  context.now = at("2026-11-29T10:00:00Z");
  engine.evaluate(context);
  CHECK(problem_of(engine.current(), cluster_queue_kind, "looping", "inactive") == nullptr);
  context.now = at("2026-11-29T10:01:59Z");
  engine.evaluate(context);
  CHECK(problem_of(engine.current(), cluster_queue_kind, "looping", "inactive") == nullptr);
  context.now = at("2026-11-29T10:02:00Z");
  engine.evaluate(context);
  const std::vector<problem> current = engine.current();
  REQUIRE(problem_of(current, cluster_queue_kind, "looping", "inactive") != nullptr);
  const problem* found = problem_of(current, cluster_queue_kind, "looping");
  CHECK(found->category == "kueue-queues");
  CHECK(format_rfc3339(found->since) == "2026-11-29T10:00:00Z");
  CHECK_THAT(found->message, Catch::StartsWith("Cluster Queue looping is inactive: Kueue admits no Workload from it: "
                                               "its Cohort chain loops (left → right → left)"));
}

TEST_CASE("waiting for quota is a problem only for a wait about quota", "[kueue][problems]") {
  fixture_cluster cluster;
  cluster.load_yaml(queues_in_every_state);
  load(cluster,
       {workload(v1beta2, "ml", "checks-failed", "ok",
                 {condition("QuotaReserved", "False", "Pending", "The workload has failed admission checks", t0)}),
        workload(v1beta2, "ml", "pods-ready", "ok",
                 {condition("QuotaReserved", "False", "Waiting",
                            "waiting for all admitted workloads to be in PodsReady condition", t0)}),
        workload(v1beta2, "ml", "flavors", "ok",
                 {condition("QuotaReserved", "False", "Pending",
                            "couldn't assign flavors to pod set main: flavor spot doesn't match node affinity", t0)}),
        workload(v1beta2, "ml", "preempting", "ok",
                 {condition("QuotaReserved", "False", "WaitingForPreemptedWorkloads",
                            "Workload no longer fits after processing another workload", t0)}),
        workload(v1beta2, "ml", "undecided", "ok", json::array())});
  mark_complete(cluster);
  auto problems = evaluate(cluster, true, "2026-11-29T12:00:00Z");
  CHECK(problem_of(problems, workload_kind, "checks-failed", "waiting-for-quota") == nullptr);
  CHECK(problem_of(problems, workload_kind, "pods-ready", "waiting-for-quota") == nullptr);
  CHECK(problem_of(problems, workload_kind, "flavors", "waiting-for-quota") != nullptr);
  CHECK(problem_of(problems, workload_kind, "preempting", "waiting-for-quota") != nullptr);
  CHECK(problem_of(problems, workload_kind, "undecided", "waiting-for-quota") != nullptr);
}

TEST_CASE("eviction counts past the largest number are held there, not wrapped", "[kueue][problems][workloads]") {
  fixture_cluster cluster;
  const std::int64_t most = std::numeric_limits<std::int64_t>::max();
  json stats = {{"schedulingStats",
                 {{"evictions",
                   {{{"reason", "Preempted"}, {"underlyingCause", ""}, {"count", most}},
                    {{"reason", "PodsReadyTimeout"}, {"underlyingCause", "WaitForStart"}, {"count", most}}}}}}};
  load(cluster, {workload(v1beta2, "ml", "huge", "q",
                          {condition("QuotaReserved", "False", "Pending", "", "2026-11-29T10:00:00Z")}, stats)});
  details_view view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", "ml", "huge"), cluster.context(), view);
  CHECK(view.blocks["evictions"]["total"] == most);
  bool noted = false;
  for (const json& note : view.notes) {
    noted = noted || note.get<std::string>().find("past the largest number") != std::string::npos;
  }
  CHECK(noted);
  auto problems = evaluate(cluster, true, "2026-11-29T10:00:00Z");
  REQUIRE(problem_of(problems, workload_kind, "huge", "evicted-repeatedly") != nullptr);
  CHECK_THAT(problem_of(problems, workload_kind, "huge")->message,
             Catch::StartsWith("Evicted " + std::to_string(most) + " times"));
}

TEST_CASE("Kueue views say which fields they left out for their type", "[kueue][malformed]") {
  fixture_cluster cluster;
  json bad =
      workload(v1beta2, "ml", "odd", "q", {condition("QuotaReserved", "False", "Pending", "", "2026-11-29T10:00:00Z")},
               {{"admissionChecks", "none"}}, {{"queueName", 5}, {"active", "yes"}});
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: odd-cq}
spec: {cohortName: [a], resourceGroups: {a: b}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: odd-lq, namespace: ml}
spec: {clusterQueue: {name: x}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: odd-cohort}
spec: {parentName: 3}
)");
  load(cluster, {bad});
  auto notes_of = [&cluster](const char* kind, const std::string& namespace_, const std::string& name) {
    details_view view;
    auto object = cluster.get("kueue.x-k8s.io", kind, namespace_, name);
    std::string which = kind;
    if (which == "Workload") {
      workload_details(*object, cluster.context(), view);
    } else if (which == "ClusterQueue") {
      cluster_queue_details(*object, cluster.context(), view, {});
    } else if (which == "LocalQueue") {
      local_queue_details(*object, cluster.context(), view, {});
    } else {
      cohort_details(*object, cluster.context(), view);
    }
    return view.notes;
  };
  auto has_note = [](const json& notes, const std::string& text) {
    return std::any_of(notes.begin(), notes.end(), [&text](const json& note) { return note == text; });
  };
  json workload_notes = notes_of("Workload", "ml", "odd");
  CHECK(has_note(workload_notes, "spec.queueName is not a string; it is left out."));
  CHECK(has_note(workload_notes, "spec.active is not true or false; it is left out."));
  CHECK(has_note(workload_notes, "status.admissionChecks is not a list; it is left out."));
  json queue_notes = notes_of("ClusterQueue", "", "odd-cq");
  CHECK(has_note(queue_notes, "spec.cohortName is not a string; it is left out."));
  CHECK(has_note(queue_notes, "spec.resourceGroups is not a list; it is left out."));
  CHECK(has_note(notes_of("LocalQueue", "ml", "odd-lq"), "spec.clusterQueue is not a string; it is left out."));
  CHECK(has_note(notes_of("Cohort", "", "odd-cohort"), "spec.parentName is not a string; it is left out."));
}
