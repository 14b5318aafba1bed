// The Kueue Queue block on a JobSet's details, and the demo cluster's JobSets. Fixtures written
// from the JobSet CRD schema (jobset v0.12.0) and Kueue's Workload CRD (v1beta2); our own.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <set>

#include "jobset_test_support.hpp"
#include "problems/problem_engine.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using namespace sextant::jobset_test;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

TEST_CASE("a queued JobSet's details carry the Kueue Queue block with its Workload", "[jobset][kueue]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: queued
  namespace: team-a
  uid: uid-queued
  labels: {kueue.x-k8s.io/queue-name: training}
spec:
  suspend: true
  replicatedJobs: [{name: workers, replicas: 2, template: {}}]
status:
  conditions:
  - {type: Suspended, status: "True", reason: SuspendedJobs, message: jobset is suspended, lastTransitionTime: "2026-11-29T11:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: jobset-queued-1a2b3
  namespace: team-a
  uid: uid-wl
  labels: {kueue.x-k8s.io/job-uid: uid-queued}
  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: queued, uid: uid-queued, controller: true}]
spec:
  queueName: training
  podSets: [{name: workers, count: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  conditions:
  - {type: QuotaReserved, status: "False", reason: Pending, message: "couldn't assign flavors to pod set workers: insufficient quota for cpu", lastTransitionTime: "2026-11-29T11:00:00Z"}
)");
  mark_children_read(cluster);
  json view = view_of(cluster, "team-a", "queued");
  CHECK(view["state"]["label"] == "Suspended");
  REQUIRE(view["queue"].is_object());
  CHECK(view["queue"]["workload"]["name"] == "jobset-queued-1a2b3");
  bool linked = false;
  for (const json& link : view["links"]) {
    linked = linked || (link["rel"] == "workload" && link["name"] == "jobset-queued-1a2b3");
  }
  CHECK(linked);

  cluster.load_yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: unqueued, namespace: team-a, uid: uid-unqueued}
spec:
  replicatedJobs: [{name: workers, replicas: 1, template: {}}]
)");
  // No label and no Workload means no Queue section only once every Workload is known.
  CHECK(view_of(cluster, "team-a", "unqueued")["queue"]["message"].get<std::string>().starts_with("Cannot tell yet"));
  sextant::testing::mark_complete(cluster);
  CHECK_FALSE(view_of(cluster, "team-a", "unqueued").contains("queue"));
}

namespace {

fixture_cluster& demo() {
  static fixture_cluster cluster = [] {
    fixture_cluster loaded(at("2026-11-29T12:00:00Z"));
    loaded.load_file(testing::source_dir() / "examples" / "demo-cluster" / "jobset");
    mark_children_read(loaded);
    return loaded;
  }();
  return cluster;
}

const json& schemas() {
  static const json loaded = yaml_to_json(YAML::LoadFile(
      (testing::source_dir() / "lib/sections/jobset/openapi-fragment.yaml").string()))["components"]["schemas"];
  return loaded;
}

// The properties a schema declares, through its allOf parts (a $ref to this fragment's schemas
// is followed; one to another fragment's counts as declaring the shared link fields).
std::set<std::string> declared(const json& schema) {
  std::set<std::string> out;
  if (schema.contains("$ref")) {
    std::string ref = schema["$ref"].get<std::string>();
    std::string name = ref.substr(ref.rfind('/') + 1);
    if (schemas().contains(name)) {
      return declared(schemas()[name]);
    }
    if (name == "KueueLink") {
      return {"apiVersion", "kind", "namespace", "name", "path", "exists"};
    }
    return out;
  }
  const json properties = schema.value("properties", json::object());
  for (const auto& [key, value] : properties.items()) {
    out.insert(key);
  }
  const json parts = schema.value("allOf", json::array());
  for (const json& part : parts) {
    std::set<std::string> more = declared(part);
    out.insert(more.begin(), more.end());
  }
  return out;
}

void check_documented(const json& value, const std::string& schema, const std::set<std::string>& skip = {}) {
  INFO("schema " << schema);
  REQUIRE(schemas().contains(schema));
  std::set<std::string> fields = declared(schemas()[schema]);
  for (const auto& [key, member] : value.items()) {
    if (!skip.contains(key)) {
      INFO("field " << key);
      CHECK(fields.contains(key));
    }
  }
}

}  // namespace

TEST_CASE("the demo cluster's JobSets: one a restart from its limit, one failed, one starting", "[jobset][demo]") {
  json pretrain = view_of(demo(), "research", "pretrain-llama");
  CHECK(pretrain["state"]["label"] == "Running");
  CHECK(pretrain["restarts"]["left"] == 1);
  CHECK(pretrain["restarts"]["total"] == 3);
  CHECK(pretrain["restarts"]["countingTowardsMax"] == 2);
  CHECK(pretrain["jobs"]["total"] == 2);
  CHECK(pretrain["pods"]["total"] == 2);

  json finetune = view_of(demo(), "research", "finetune-eval");
  CHECK(finetune["state"]["label"] == "Failed");
  CHECK(finetune["state"]["reason"] == "ReachedMaxRestarts");
  CHECK(finetune["failedJob"]["name"] == "finetune-eval-workers-1");
  CHECK(finetune["failedJob"]["exists"] == true);
  CHECK(finetune["failedJob"]["reason"] == "BackoffLimitExceeded");
  CHECK(finetune["pods"]["items"][0]["phase"] != "Running");

  json pipeline = view_of(demo(), "research", "rl-pipeline");
  CHECK(pipeline["state"]["label"] == "Starting");
  CHECK(pipeline["startupPolicy"] == "InOrder");
  CHECK(pipeline["replicatedJobs"].size() == 2);

  section s = jobset::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(demo().context());
  std::set<std::string> flagged;
  for (const problem& p : engine.current()) {
    flagged.insert(p.name + "/" + p.finding_id);
  }
  CHECK(flagged == std::set<std::string>{"finetune-eval/failed", "pretrain-llama/restarts-nearly-exhausted"});
}

TEST_CASE("the openapi fragment declares every field of the JobSet views", "[jobset][openapi]") {
  const std::set<std::string> common = {"state", "links", "notes"};
  for (const object_ptr& jobset : demo().store.list(jobset::jobset_kind)) {
    json view = view_of(demo(), std::string(jobset->namespace_), std::string(jobset->name));
    check_documented(view, "JobSetDetails", common);
    check_documented(view["restarts"], "JobSetRestarts");
    if (view["failedJob"].is_object()) {
      check_documented(view["failedJob"], "JobSetFailedJob");
    }
    for (const char* list : {"jobs", "pods"}) {
      check_documented(view[list], "JobSetChildren");
      for (const json& item : view[list]["items"]) {
        std::set<std::string> fields = declared(schemas()["JobSetChildren"]["properties"]["items"]["items"]);
        for (const auto& [key, member] : item.items()) {
          INFO(list << " field " << key);
          CHECK(fields.contains(key));
        }
      }
    }
  }
}
