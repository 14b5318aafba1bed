#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster& demo() {
  static fixture_cluster cluster = [] {
    fixture_cluster loaded;
    loaded.load_file(sextant::testing::source_dir() / "examples" / "demo-cluster" / "kueue");
    mark_complete(loaded);
    return loaded;
  }();
  return cluster;
}

object_ptr get(const char* kind, const char* namespace_, const char* name) {
  object_ptr object = demo().get("kueue.x-k8s.io", kind, namespace_, name);
  REQUIRE(object);
  return object;
}

}  // namespace

TEST_CASE("demo: two Cluster Queues in a cohort, one borrowing, one stopped", "[kueue][demo]") {
  auto context = demo().context();
  auto borrowing = get("ClusterQueue", "", "gpu-a100");
  CHECK(cluster_queue_state(*borrowing, context).label == "Active");
  details_view view;
  cluster_queue_details(*borrowing, context, view, {});
  CHECK(view.blocks["cohortLink"]["name"] == "research");
  bool over = false;
  for (const json& row : view.blocks["quota"]) {
    if (row["resource"] == "nvidia.com/gpu") {
      CHECK(row["borrowed"] == "4");
      over = row["sharePercent"].get<double>() > 100.0;
    }
  }
  CHECK(over);
  // Its waiting list: the Local Queue's waiting Workloads, oldest first, each with Kueue's reason.
  const json& waiting = view.blocks["waiting"];
  CHECK(waiting["incomplete"] == false);
  REQUIRE(waiting["items"].size() == 3);
  CHECK(waiting["items"][0]["name"] == "job-finetune-8a41f");
  CHECK(waiting["items"][1]["name"] == "job-eval-0b7c6");
  CHECK(waiting["items"][1]["state"] == "Evicted");
  CHECK(waiting["items"][2]["name"] == "job-sweep-d93e0");
  CHECK_THAT(waiting["items"][2]["message"].get<std::string>(),
             Catch::Contains("; couldn't assign flavors to pod set trials"));

  auto lender = get("ClusterQueue", "", "gpu-shared");
  json lending = quota_table(*lender, context);
  CHECK(std::any_of(lending.begin(), lending.end(), [](const json& row) { return row["lendingLimit"] == "6"; }));
  CHECK(cluster_queue_state(*get("ClusterQueue", "", "batch-cpu"), context).label == "Stopped");

  details_view cohort;
  cohort_details(*get("Cohort", "", "research"), context, cohort);
  CHECK(cohort.blocks["members"].size() == 2);
}

TEST_CASE("demo: every Workload state, and the Queue section of its Jobs", "[kueue][demo]") {
  auto context = demo().context();
  auto label = [&](const char* ns, const char* name) {
    return workload_state(*get("Workload", ns, name), context).label;
  };
  CHECK(label("team-a", "job-train-llm-5c2d1") == "Admitted");
  CHECK(label("team-a", "job-finetune-8a41f") == "Pending");
  CHECK(label("team-a", "job-eval-0b7c6") == "Evicted");
  // Held by the stopped batch-cpu: a stop is not the Workload's fault, whatever reason Kueue wrote.
  CHECK(label("team-a", "job-nightly-etl-4f2a9") == "Pending");
  CHECK(label("team-a", "job-pretrain-1e9b7") == "Deactivated");
  CHECK(label("team-b", "job-ablation-77c3e") == "Waiting for admission checks");
  CHECK(label("team-b", "job-probe-2d5a8") == "Deactivated");
  CHECK(label("team-a", "job-report-93b1c") == "Finished");

  route_answer nightly = queue_route(std::vector<std::string>{"jobs", "team-a", "nightly-etl"}, context);
  REQUIRE(nightly.status == 200);
  CHECK(nightly.body["waiting"]["blockedBy"]["name"] == "batch-cpu");
  CHECK(nightly.body["waiting"]["blockedBy"]["state"]["label"] == "Stopped");
  route_answer train = queue_route(std::vector<std::string>{"jobs", "team-a", "train-llm"}, context);
  CHECK(train.body["state"]["label"] == "Admitted");
  CHECK(train.body["clusterQueue"]["name"] == "gpu-a100");
}

TEST_CASE("demo: the Kueue problems", "[kueue][demo]") {
  section s = make_section();
  problem_engine engine(s.categories, s.rules);
  engine.set_enabled("kueue-workloads", true);
  view_context context = demo().context();
  context.now = sextant::testing::at("2026-11-29T12:00:00Z");
  engine.evaluate(context);
  std::vector<std::string> found;
  for (const problem& p : engine.current()) {
    found.push_back(p.name + ":" + p.finding_id);
  }
  CHECK_THAT(found, Catch::VectorContains(std::string("job-finetune-8a41f:waiting-for-quota")));
  CHECK_THAT(found, Catch::VectorContains(std::string("job-eval-0b7c6:evicted-repeatedly")));
  CHECK_THAT(found, Catch::VectorContains(std::string("job-pretrain-1e9b7:deactivated-by-kueue")));
  // The sweep has waited 40 minutes (yes), the stopped queue's Workload and the person's
  // deactivation are no faults.
  CHECK_THAT(found, Catch::VectorContains(std::string("job-sweep-d93e0:waiting-for-quota")));
  CHECK_THAT(found, Catch::VectorContains(std::string("h100-preview:cluster-queue-missing")));
  for (const std::string& entry : found) {
    CHECK(entry.find("nightly") == std::string::npos);
    CHECK(entry.find("probe") == std::string::npos);
  }
}
