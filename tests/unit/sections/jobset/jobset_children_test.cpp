// The Jobs and pods of a JobSet's details, found by the JobSet label: at most 500 of each read,
// pods that are not running first, at most 50 shown. Written from the JobSet CRD schema and the
// labels the controller puts on its Jobs and pods (jobset v0.12.0); our own fixtures.
#include <catch2/catch.hpp>

#include "jobset_test_support.hpp"
#include "runtime/section_catalog.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

const char* trainer = R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: trainer, namespace: ml, uid: uid-trainer, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  replicatedJobs:
  - {name: workers, replicas: 501, template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}}
status:
  replicatedJobsStatus: [{name: workers, ready: 501, active: 501, succeeded: 0, failed: 0, suspended: 0}]
)";

json labelled(const std::string& kind, const std::string& api_version, const std::string& namespace_,
              const std::string& name, const std::string& jobset_uid) {
  return json{{"apiVersion", api_version},
              {"kind", kind},
              {"metadata",
               {{"name", name},
                {"namespace", namespace_},
                {"uid", "uid-" + namespace_ + "-" + name},
                {"labels",
                 {{"jobset.sigs.k8s.io/jobset-name", "trainer"},
                  {"jobset.sigs.k8s.io/jobset-uid", jobset_uid},
                  {"jobset.sigs.k8s.io/replicatedjob-name", "workers"},
                  {"jobset.sigs.k8s.io/restart-attempt", "0"},
                  {"batch.kubernetes.io/job-name", "trainer-workers-0"}}}}}};
}

fixture_cluster with_children(int jobs, int pods) {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(trainer);
  json items = json::array();
  for (int i = 0; i < jobs; ++i) {
    json job = labelled("Job", "batch/v1", "ml", "trainer-workers-" + std::to_string(i), "uid-trainer");
    job["status"] = {{"active", 1}};
    items.push_back(std::move(job));
  }
  for (int i = 0; i < pods; ++i) {
    json pod = labelled("Pod", "v1", "ml", "trainer-workers-0-" + std::to_string(100 + i), "uid-trainer");
    // Every tenth pod is Pending; the rest run.
    pod["status"] = {{"phase", i % 10 == 9 ? "Pending" : "Running"}};
    pod["spec"] = {{"nodeName", i % 10 == 9 ? "" : "node-1"}, {"containers", {{{"name", "c"}}}}};
    items.push_back(std::move(pod));
  }
  // Same name in another namespace, and an earlier JobSet of the same name: not ours.
  items.push_back(labelled("Job", "batch/v1", "other", "trainer-workers-0", "uid-trainer"));
  items.push_back(labelled("Pod", "v1", "ml", "trainer-old-pod", "uid-earlier-trainer"));
  cluster.load_json(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump());
  mark_children_read(cluster);
  return cluster;
}

}  // namespace

TEST_CASE("a JobSet's Jobs and pods are listed by the JobSet label, in its namespace, of its uid", "[jobset]") {
  fixture_cluster cluster = with_children(3, 20);
  json view = view_of(cluster, "ml", "trainer");
  CHECK(view["jobs"]["total"] == 3);
  CHECK(view["jobs"]["incomplete"] == false);
  CHECK(view["jobs"]["items"][0]["name"] == "trainer-workers-0");
  CHECK(view["jobs"]["items"][0]["namespace"] == "ml");
  CHECK(view["jobs"]["items"][0]["state"]["label"] == "Running");
  CHECK(view["jobs"]["items"][0]["replicatedJob"] == "workers");
  CHECK(view["jobs"]["items"][0]["restartAttempt"] == "0");
  CHECK(view["pods"]["total"] == 20);
  // Pods that are not running first.
  CHECK(view["pods"]["items"][0]["phase"] == "Pending");
  CHECK(view["pods"]["items"][1]["phase"] == "Pending");
  CHECK(view["pods"]["items"][2]["phase"] == "Running");
  CHECK(view["pods"]["items"][2]["node"] == "node-1");
  for (const json& pod : view["pods"]["items"]) {
    CHECK(pod["name"] != "trainer-old-pod");
  }
}

TEST_CASE("501 Jobs: 500 read, the list says it is cut, 50 shown", "[jobset]") {
  fixture_cluster cluster = with_children(501, 60);
  json view = view_of(cluster, "ml", "trainer");
  CHECK(view["jobs"]["total"] == 500);
  CHECK(view["jobs"]["shown"] == 50);
  CHECK(view["jobs"]["items"].size() == 50);
  CHECK(view["jobs"]["incomplete"] == true);
  CHECK(view["jobs"]["incompleteReason"] == "cut at 500 Jobs");
  CHECK(has_note_containing(view, "The list of Jobs may be incomplete: cut at 500 Jobs."));
  CHECK(view["pods"]["total"] == 60);
  CHECK(view["pods"]["shown"] == 50);
  CHECK(view["pods"]["incomplete"] == false);
  // The six Pending pods are among the 50 shown, first.
  for (int i = 0; i < 6; ++i) {
    CHECK(view["pods"]["items"][i]["phase"] == "Pending");
  }
}

TEST_CASE("Jobs and pods not read yet: the lists say so rather than showing none", "[jobset]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(trainer);
  json view = view_of(cluster, "ml", "trainer");
  CHECK(view["jobs"]["total"] == 0);
  CHECK(view["jobs"]["incomplete"] == true);
  CHECK(view["pods"]["incomplete"] == true);
  CHECK_FALSE(view["pods"]["incompleteReason"].is_null());
}

TEST_CASE("the JobSet section indexes the JobSet label on Jobs and pods and watches nothing more", "[jobset]") {
  const section& s = []() -> const section& {
    for (const section& candidate : testing::registered_sections()) {
      if (candidate.id == "jobset") {
        return candidate;
      }
    }
    throw std::runtime_error("no jobset section");
  }();
  bool jobs = false;
  bool pods = false;
  for (const kind_reads& reads : s.reads) {
    bool labelled = std::find(reads.indexed_labels.begin(), reads.indexed_labels.end(),
                              "jobset.sigs.k8s.io/jobset-name") != reads.indexed_labels.end();
    jobs = jobs || (reads.type == core::job_kind && labelled);
    pods = pods || (reads.type == core::pod_kind && labelled);
  }
  CHECK(jobs);
  CHECK(pods);
  REQUIRE(s.resources.size() == 1);
  CHECK(s.resources[0].on_demand_category.empty());
  // Kueue's Queue route lists JobSets among the job kinds it reads on demand; the JobSet
  // section watches them always, so they are not.
  const section_catalog catalog(testing::registered_sections());
  CHECK_FALSE(catalog.read_on_demand(s.resources[0].type));
}
