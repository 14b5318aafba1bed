#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/workload_reading.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

const std::string v1beta1 = "kueue.x-k8s.io/v1beta1";

object_state state_of(fixture_cluster& cluster, const json& object) {
  load(cluster, {object});
  const std::string name = object["metadata"]["name"].get<std::string>();
  const std::string namespace_ = object["metadata"].value("namespace", "");
  return workload_state(*cluster.get("kueue.x-k8s.io", "Workload", namespace_, name), cluster.context());
}

json details_of(fixture_cluster& cluster, const std::string& namespace_, const std::string& name) {
  details_view view;
  workload_details(*cluster.get("kueue.x-k8s.io", "Workload", namespace_, name), cluster.context(), view);
  json out = view.blocks;
  out["notes"] = view.notes;
  return out;
}

}  // namespace

TEST_CASE("Workloads as Kueue writes them read in Kueue's words, in both versions", "[kueue][workloads]") {
  fixture_cluster cluster;
  for (const auto& [file, version] : {std::pair{"kueue/workload-admitted.yaml", v1beta2},
                                      std::pair{"kueue/workload-admitted-v1beta1.yaml", v1beta1}}) {
    object_state admitted = state_of(cluster, excerpt_object(file, version, "Workload", "default", "admitted"));
    CHECK(admitted.label == "Admitted");
    CHECK(admitted.message == "The workload is admitted");
  }

  object_state waiting =
      state_of(cluster, excerpt_object("kueue/workload-pending-quota.yaml", v1beta2, "Workload", "default", "short"));
  CHECK(waiting.label == "Pending");
  CHECK(waiting.reason == "Pending");
  CHECK(waiting.message ==
        "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor in ClusterQueue");

  object_state missing = state_of(
      cluster, excerpt_object("kueue/workload-missing-local-queue.yaml", v1beta2, "Workload", "default", "lost"));
  CHECK(missing.label == "Inadmissible");
  CHECK(missing.message == "LocalQueue user-queue doesn't exist");

  object_state checks = state_of(cluster, excerpt_object("kueue/workload-pending-admission-check.yaml", v1beta2,
                                                         "Workload", "default", "checking"));
  CHECK(checks.label == "Waiting for admission checks");
  CHECK_THAT(checks.message, Catch::Contains("dws-prov (Pending)"));

  object_state preempted =
      state_of(cluster, excerpt_object("kueue/workload-preempted.yaml", v1beta2, "Workload", "default", "preempted"));
  CHECK(preempted.label == "Evicted");
  CHECK(preempted.reason == "Preempted");
  CHECK(preempted.message == "Preempted to accommodate a higher priority Workload");
  // Evicted and queued again: the details still say why it waits now, as the scheduler wrote it.
  json details = details_of(cluster, "default", "preempted");
  CHECK(details["waiting"]["message"] ==
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 9 more "
        "needed");

  object_state in_cq = state_of(
      cluster, excerpt_object("kueue/workload-evicted-in-cluster-queue.yaml", v1beta2, "Workload", "default", "in-cq"));
  CHECK(in_cq.label == "Evicted");
  CHECK_THAT(in_cq.message, Catch::StartsWith("Preempted to accommodate a workload (UID: 5c023c28"));
}

TEST_CASE("Workload states follow Kueue's order", "[kueue][workloads]") {
  fixture_cluster cluster;
  SECTION("Finished wins over everything") {
    auto state = state_of(
        cluster, workload(v1beta2, "ml", "done", "q",
                          {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", t0),
                           condition("Admitted", "True", "Admitted", "The workload is admitted", t0),
                           condition("Finished", "True", "Succeeded", "Job finished successfully", t0)}));
    CHECK(state.label == "Finished");
    CHECK(state.reason == "Succeeded");
    CHECK(state.message == "Job finished successfully");
  }
  SECTION("Admitted while being evicted stays Admitted and says so") {
    auto state = state_of(
        cluster,
        workload(v1beta2, "ml", "stopping", "q",
                 {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", t0),
                  condition("Admitted", "True", "Admitted", "The workload is admitted", t0),
                  condition("Evicted", "True", "PodsReadyTimeout", "Exceeded the PodsReady timeout ml/stopping", t0)}));
    CHECK(state.label == "Admitted");
    CHECK_THAT(state.message, Catch::Contains("Exceeded the PodsReady timeout ml/stopping"));
  }
  SECTION("Evicted once the reservation is gone") {
    auto state = state_of(cluster, workload(v1beta1, "ml", "timed-out", "q",
                                            {condition("QuotaReserved", "False", "Pending",
                                                       "couldn't assign flavors to pod set main: insufficient unused "
                                                       "quota for cpu in flavor default, 1 more needed",
                                                       t0),
                                             condition("Evicted", "True", "PodsReadyTimeout",
                                                       "Exceeded the PodsReady timeout ml/timed-out", t0)}));
    CHECK(state.label == "Evicted");
    CHECK(state.reason == "PodsReadyTimeout");
    CHECK(state.message == "Exceeded the PodsReady timeout ml/timed-out");
  }
  SECTION("no condition yet: queued") {
    auto state = state_of(cluster, workload(v1beta2, "ml", "fresh", "q", json::array()));
    CHECK(state.label == "Pending");
    CHECK_THAT(state.message, Catch::Contains("not considered"));
  }
  SECTION("granular reasons with the UnadmittedWorkloadsObservability gate on") {
    auto quota = state_of(cluster, workload(v1beta2, "ml", "gated-quota", "q",
                                            {condition("QuotaReserved", "False", "WaitingForQuota",
                                                       "couldn't assign flavors to pod set main: insufficient unused "
                                                       "quota for nvidia.com/gpu in flavor a100, 4 more needed",
                                                       t0)}));
    CHECK(quota.label == "Pending");
    CHECK(quota.reason == "WaitingForQuota");
    auto misconfigured = state_of(
        cluster, workload(v1beta2, "ml", "gated-missing", "q",
                          {condition("QuotaReserved", "False", "Misconfigured", "ClusterQueue cq not found", t0)}));
    CHECK(misconfigured.label == "Inadmissible");
    CHECK(misconfigured.message == "ClusterQueue cq not found");
  }
}

TEST_CASE("the scheduler's messages are kept as Kueue wrote them", "[kueue][workloads]") {
  fixture_cluster cluster;
  const std::vector<std::string> messages = {
      // several pod sets joined with "; ", per-pod-set reasons with ", ", and the preemption suffixes
      "couldn't assign flavors to pod set driver: insufficient unused quota for cpu in flavor on-demand, 2 more "
      "needed; "
      "couldn't assign flavors to pod set workers: flavor spot doesn't match node affinity, insufficient quota for "
      "nvidia.com/gpu in flavor a100, previously considered podsets requests (8) + current podset request (8) > "
      "maximum capacity (8). Pending the preemption of 2 workload(s)",
      "couldn't assign flavors to pod set main: untolerated taint {spot true NoSchedule <nil>} in flavor spot. "
      "Preempting 1 workload(s) failed, will retry.",
      "couldn't assign flavors to pod set main: flavor a100 not found",
      "couldn't assign flavors to pod set main: resource example.com/fpga unavailable in ClusterQueue",
      "Workload no longer fits after processing another workload",
      "The workload has failed admission checks",
  };
  int index = 0;
  for (const std::string& message : messages) {
    std::string name = "w" + std::to_string(index++);
    auto state = state_of(
        cluster, workload(v1beta2, "ml", name, "q", {condition("QuotaReserved", "False", "Pending", message, t0)}));
    CHECK(state.label == "Pending");
    CHECK(state.message == message);
  }
  auto waiting =
      state_of(cluster, workload(v1beta2, "ml", "blocked", "q",
                                 {condition("QuotaReserved", "False", "Waiting",
                                            "waiting for all admitted workloads to be in PodsReady condition", t0)}));
  CHECK(waiting.label == "Pending");
  CHECK(waiting.reason == "Waiting");
}

TEST_CASE("a person's deactivation and Kueue's are said differently", "[kueue][workloads][deactivation]") {
  fixture_cluster cluster;
  const json inactive = {{"active", false}};
  SECTION("a person set spec.active=false on a running Workload") {
    auto state =
        state_of(cluster, workload(v1beta2, "ml", "by-hand", "q",
                                   {condition("QuotaReserved", "False", "Pending", "", t0),
                                    condition("Evicted", "True", "Deactivated", "The workload is deactivated", t0)},
                                   json::object(), inactive));
    CHECK(state.label == "Deactivated");
    CHECK(state.reason == "Deactivated");
    CHECK_THAT(state.message, Catch::StartsWith("Deactivated by a person"));
    json details = details_of(cluster, "ml", "by-hand");
    CHECK(details["deactivation"]["by"] == "person");
    CHECK(details["deactivation"]["cause"].is_null());
  }
  SECTION("a person deactivated a Workload that never ran") {
    auto state = state_of(
        cluster, workload(v1beta2, "ml", "never-ran", "q",
                          {condition("QuotaReserved", "False", "Inadmissible", "The workload is deactivated", t0)},
                          json::object(), inactive));
    CHECK(state.label == "Deactivated");
    CHECK(details_of(cluster, "ml", "never-ran")["deactivation"]["by"] == "person");
  }
  SECTION("Kueue deactivated it for each cause, in today's and the older reason names") {
    struct cause_case {
      std::string api_version;
      std::string reason;
      std::string message;
      std::string cause;
    };
    const std::vector<cause_case> cases = {
        {v1beta2, "DeactivatedDueToRequeuingLimitExceeded",
         "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
         "RequeuingLimitExceeded"},
        {v1beta2, "DeactivatedDueToMaximumExecutionTimeExceeded",
         "The workload is deactivated due to exceeding the maximum execution time", "MaximumExecutionTimeExceeded"},
        {v1beta1, "DeactivatedDueToAdmissionCheck",
         "The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\" (capacity unavailable)",
         "AdmissionCheck"},
        {v1beta2, "DeactivatedDueToEvictedOnManagerCluster",
         "The workload is deactivated due to Evicted on manager: Preempted to accommodate a workload",
         "EvictedOnManagerCluster"},
        {v1beta1, "InactiveWorkloadRequeuingLimitExceeded",
         "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
         "RequeuingLimitExceeded"},
    };
    int index = 0;
    for (const cause_case& c : cases) {
      std::string name = "kueue-" + std::to_string(index++);
      auto state = state_of(cluster, workload(c.api_version, "ml", name, "q",
                                              {condition("QuotaReserved", "False", "Pending", "", t0),
                                               condition("Evicted", "True", c.reason, c.message, t0)},
                                              json::object(), inactive));
      CHECK(state.label == "Deactivated");
      CHECK(state.reason == c.reason);
      CHECK(state.message == c.message);
      json details = details_of(cluster, "ml", name);
      CHECK(details["deactivation"]["by"] == "kueue");
      CHECK(details["deactivation"]["cause"] == c.cause);
    }
    // The old `InactiveWorkload` alone was a person's.
    auto old_person = state_of(
        cluster, workload(v1beta1, "ml", "old-person", "q",
                          {condition("Evicted", "True", "InactiveWorkload", "The workload is deactivated", t0)},
                          json::object(), inactive));
    CHECK_THAT(old_person.message, Catch::StartsWith("Deactivated by a person"));
  }
  SECTION("Kueue has decided to deactivate but not yet applied it") {
    auto state = state_of(
        cluster, workload(v1beta2, "ml", "deciding", "q",
                          {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", t0),
                           condition("Admitted", "True", "Admitted", "The workload is admitted", t0),
                           condition("DeactivationTarget", "True", "MaximumExecutionTimeExceeded",
                                     "exceeding the maximum execution time", t0)}));
    CHECK(state.label == "Deactivated");
    CHECK_THAT(state.message,
               Catch::StartsWith("Kueue is deactivating it because it ran past its maximum execution time"));
    json details = details_of(cluster, "ml", "deciding");
    CHECK(details["deactivation"]["inProgress"] == true);
  }
}

TEST_CASE("evictions so far are summed from schedulingStats, with their reasons", "[kueue][workloads]") {
  fixture_cluster cluster;
  json stats = {{"schedulingStats",
                 {{"evictions",
                   {{{"reason", "Preempted"}, {"underlyingCause", ""}, {"count", 2}},
                    {{"reason", "PodsReadyTimeout"}, {"underlyingCause", "WaitForStart"}, {"count", 1}},
                    {{"reason", "Deactivated"}, {"underlyingCause", "RequeuingLimitExceeded"}, {"count", 1}}}}}}};
  load(cluster,
       {workload(v1beta2, "ml", "bounced", "q", {condition("QuotaReserved", "False", "Pending", "", t0)}, stats)});
  json evictions = details_of(cluster, "ml", "bounced")["evictions"];
  CHECK(evictions["total"] == 4);
  REQUIRE(evictions["byReason"].size() == 3);
  CHECK(evictions["byReason"][1]["reason"] == "PodsReadyTimeout");
  CHECK(evictions["byReason"][1]["underlyingCause"] == "WaitForStart");
  CHECK(evictions["byReason"][0]["underlyingCause"].is_null());

  // Kueue before v0.12 counted nothing: evicted, but how often cannot be told.
  load(cluster, {workload(v1beta1, "ml", "old", "q",
                          {condition("Evicted", "True", "Preempted",
                                     "Preempted to accommodate a higher priority Workload", t0)})});
  json old = details_of(cluster, "ml", "old");
  CHECK(old["evictions"]["total"].is_null());
  CHECK_THAT(old["notes"][0].get<std::string>(), Catch::Contains("cannot be told"));
}

TEST_CASE("pod sets show requests and the flavors Kueue assigned", "[kueue][workloads]") {
  fixture_cluster cluster;
  for (const auto& [file, version] : {std::pair{"kueue/workload-admitted.yaml", v1beta2},
                                      std::pair{"kueue/workload-admitted-v1beta1.yaml", v1beta1}}) {
    json object = excerpt_object(file, version, "Workload", "default", "sample");
    object["spec"] = json::parse(R"({"queueName": "user-queue", "podSets": [{"name": "main", "count": 3,
      "template": {"spec": {"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "100Mi"}}},
        {"name": "b", "resources": {"requests": {"cpu": "500m"}, "limits": {"memory": "100Mi"}}}]}}}]})");
    load(cluster, {object});
    json pod_sets = details_of(cluster, "default", "sample")["podSets"];
    REQUIRE(pod_sets.size() == 1);
    CHECK(pod_sets[0]["name"] == "main");
    CHECK(pod_sets[0]["count"] == 3);
    CHECK(pod_sets[0]["requestsPerPod"]["cpu"] == "1");
    CHECK(pod_sets[0]["requestsPerPod"]["memory"] == "200Mi");
    CHECK(pod_sets[0]["requests"]["memory"] == "600Mi");
    CHECK(pod_sets[0]["assigned"]["flavors"]["cpu"] == "default-flavor");
    CHECK(pod_sets[0]["assigned"]["resourceUsage"]["cpu"] == "3");
  }
}

TEST_CASE("every combination of the five conditions reads in Kueue's order", "[kueue][workloads][order]") {
  // The spec's order: Finished, Deactivated, Admitted, Evicted, Waiting for admission checks,
  // Pending. Each of the five conditions is True or False; the first state whose condition holds wins.
  fixture_cluster cluster;
  int index = 0;
  for (int bits = 0; bits < 32; ++bits) {
    const bool finished = (bits & 1) != 0;
    const bool deactivating = (bits & 2) != 0;
    const bool admitted = (bits & 4) != 0;
    const bool evicted = (bits & 8) != 0;
    const bool reserved = (bits & 16) != 0;
    auto status = [](bool on) { return std::string(on ? "True" : "False"); };
    json conditions = json::array();
    conditions.push_back(condition("QuotaReserved", status(reserved), reserved ? "QuotaReserved" : "Pending",
                                   reserved ? "Quota reserved in ClusterQueue cq" : "", t0));
    conditions.push_back(condition("Admitted", status(admitted), admitted ? "Admitted" : "UnsatisfiedChecks",
                                   admitted ? "The workload is admitted" : "The workload has not all checks ready",
                                   t0));
    conditions.push_back(condition("Evicted", status(evicted), evicted ? "AdmissionCheck" : "QuotaReserved",
                                   "Evicted due to AdmissionCheck in Retry state: \"prov\" (retry)", t0));
    conditions.push_back(
        condition("DeactivationTarget", status(deactivating), "MaximumExecutionTimeExceeded", "exceeding", t0));
    conditions.push_back(condition("Finished", status(finished), "Succeeded", "done", t0));
    std::string expected = finished       ? "Finished"
                           : deactivating ? "Deactivated"
                           : admitted     ? "Admitted"
                           : evicted      ? "Evicted"
                           : reserved     ? "Waiting for admission checks"
                                          : "Pending";
    std::string name = "order-" + std::to_string(index++);
    INFO("Finished=" << finished << " DeactivationTarget=" << deactivating << " Admitted=" << admitted
                     << " Evicted=" << evicted << " QuotaReserved=" << reserved);
    CHECK(state_of(cluster, workload(v1beta2, "ml", name, "q", conditions)).label == expected);
  }
}

TEST_CASE("a check in Retry evicts a Workload whose reservation stands: Evicted", "[kueue][workloads][order]") {
  fixture_cluster cluster;
  auto state = state_of(
      cluster,
      workload(v1beta2, "ml", "retrying", "q",
               {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", t0),
                condition("Admitted", "False", "UnsatisfiedChecks", "The workload has not all checks ready", t0),
                condition("Evicted", "True", "AdmissionCheck",
                          "Evicted due to AdmissionCheck in Retry state: \"prov\" (capacity)", t0)}));
  CHECK(state.label == "Evicted");
  CHECK(state.reason == "AdmissionCheck");
  CHECK(state.message == "Evicted due to AdmissionCheck in Retry state: \"prov\" (capacity)");
}
