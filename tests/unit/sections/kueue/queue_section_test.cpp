#include <catch2/catch.hpp>

#include <algorithm>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream_documents;

namespace {

// One job of each kind Kueue runs (tests/fixtures/kueue/queued-jobs.yaml), with the identity a
// cluster would give it.
struct job_sample {
  std::string resource;
  std::string kind;
};
const std::vector<job_sample> samples = {
    {"jobs", "Job"},
    {"jobsets", "JobSet"},
    {"rayjobs", "RayJob"},
    {"rayclusters", "RayCluster"},
    {"pytorchjobs", "PyTorchJob"},
    {"tfjobs", "TFJob"},
    {"mpijobs", "MPIJob"},
    {"xgboostjobs", "XGBoostJob"},
    {"paddlejobs", "PaddleJob"},
    {"jaxjobs", "JAXJob"},
    {"trainjobs", "TrainJob"},
    {"leaderworkersets", "LeaderWorkerSet"},
    {"appwrappers", "AppWrapper"},
};

json job_from(const job_sample& sample) {
  json job;
  for (const json& document : upstream_documents("kueue/queued-jobs.yaml")) {
    if (document.value("kind", "") == sample.kind) {
      job = document;
    }
  }
  REQUIRE(job.is_object());
  json& metadata = job["metadata"];
  metadata["namespace"] = "default";
  metadata["uid"] = "uid-" + sample.resource;
  return job;
}

json queues() {
  return json::parse(R"([
    {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "cluster-queue"},
     "spec": {"stopPolicy": "Hold"},
     "status": {"conditions": [{"type": "Active", "status": "False", "reason": "Stopped",
                                "message": "Can't admit new workloads: is stopped.", "lastTransitionTime": "2026-11-29T09:00:00Z"}]}},
    {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue", "metadata": {"name": "user-queue", "namespace": "default"},
     "spec": {"clusterQueue": "cluster-queue"},
     "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Ready",
                                "message": "Can submit new workloads to localQueue", "lastTransitionTime": "2026-11-29T09:00:00Z"}]}}
  ])");
}

json workload_for(const json& job, const std::string& name) {
  json object =
      workload(v1beta2, "default", name, "user-queue",
               {condition("QuotaReserved", "False", "Inadmissible", "ClusterQueue cluster-queue is stopped", t0)});
  object["metadata"]["labels"] = {{"kueue.x-k8s.io/job-uid", job["metadata"]["uid"]}};
  object["metadata"]["ownerReferences"] = {{{"apiVersion", job["apiVersion"]},
                                            {"kind", job["kind"]},
                                            {"name", job["metadata"]["name"]},
                                            {"uid", job["metadata"]["uid"]},
                                            {"controller", true}}};
  return object;
}

route_answer ask(fixture_cluster& cluster, std::vector<std::string> rest) {
  return queue_route(rest, cluster.context());
}

}  // namespace

TEST_CASE("every job kind's Queue section finds its Workload by the job-uid label", "[kueue][queue-section]") {
  fixture_cluster cluster;
  std::vector<json> objects = queues().get<std::vector<json>>();
  for (const job_sample& sample : samples) {
    json job = job_from(sample);
    objects.push_back(job);
    objects.push_back(workload_for(job, "wl-" + sample.resource));
  }
  load(cluster, objects);
  mark_complete(cluster);
  REQUIRE(job_resources().size() == samples.size());
  for (const job_sample& sample : samples) {
    json job = job_from(sample);
    route_answer answer = ask(cluster, {sample.resource, "default", job["metadata"]["name"].get<std::string>()});
    INFO(sample.resource);
    REQUIRE(answer.status == 200);
    CHECK(answer.body["workload"]["name"] == "wl-" + sample.resource);
    CHECK(answer.body["workload"]["path"] == "/api/v1/kueue/workloads/default/wl-" + sample.resource);
    // A stopped queue is not the Workload's fault: Pending, told through the queue.
    CHECK(answer.body["state"]["label"] == "Pending");
    CHECK(answer.body["state"]["message"] ==
          "Waits because its Cluster Queue cluster-queue is stopped (stopPolicy Hold).");
    CHECK(answer.body["localQueue"]["name"] == "user-queue");
    CHECK(answer.body["clusterQueue"]["name"] == "cluster-queue");
    // Waiting because its queue is stopped: told through the queue.
    CHECK(answer.body["waiting"]["blockedBy"]["kind"] == "ClusterQueue");
    CHECK(answer.body["waiting"]["blockedBy"]["state"]["label"] == "Stopped");
    CHECK(answer.body["waiting"]["blockedBy"]["path"] == "/api/v1/kueue/clusterqueues/cluster-queue");
    CHECK(answer.body["message"] == "Waits because its Cluster Queue cluster-queue is stopped (stopPolicy Hold).");
  }
}

TEST_CASE("the same block is embedded in the details of those kinds", "[kueue][queue-section]") {
  fixture_cluster cluster;
  json job = job_from(samples[0]);
  load(cluster, queues().get<std::vector<json>>());
  load(cluster, {job, workload_for(job, "wl-job")});
  mark_complete(cluster);
  section kueue_section = make_section();
  for (const job_resource& resource : job_resources()) {
    CHECK(std::any_of(kueue_section.extensions.begin(), kueue_section.extensions.end(),
                      [&resource](const details_extension& e) { return e.type == resource.type; }));
  }
  auto object = cluster.get("batch", "Job", "default", job["metadata"]["name"].get<std::string>());
  details_view view;
  for (const details_extension& extension : kueue_section.extensions) {
    if (extension.type == object->type) {
      extension.extend(*object, cluster.context(), view);
    }
  }
  CHECK(view.blocks["queue"] == ask(cluster, {"jobs", "default", std::string(object->name)}).body);
  REQUIRE(view.links.size() == 1);
  CHECK(view.links[0]["rel"] == "workload");
}

TEST_CASE("a job without the queue label shows the section only if a Workload exists", "[kueue][queue-section]") {
  fixture_cluster cluster;
  load(cluster, queues().get<std::vector<json>>());
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: plain, namespace: default, uid: u-plain}
spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: adopted, namespace: default, uid: u-adopted}
spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: job-adopted-1a2b3
  namespace: default
  labels: {kueue.x-k8s.io/job-uid: u-adopted}
spec: {queueName: user-queue, podSets: [{name: main, count: 1}]}
status:
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: Quota reserved in ClusterQueue cluster-queue, lastTransitionTime: "2026-11-29T10:00:00Z"}
  - {type: Admitted, status: "True", reason: Admitted, message: The workload is admitted, lastTransitionTime: "2026-11-29T10:00:00Z"}
  admission: {clusterQueue: cluster-queue}
)");
  // While the Workloads are not all read, "no Workload" is not known: cannot tell yet, an answer.
  route_answer unknown = ask(cluster, {"jobs", "default", "plain"});
  REQUIRE(unknown.status == 200);
  CHECK(unknown.body["workload"].is_null());
  CHECK(unknown.body["queueName"] == "");
  CHECK_THAT(unknown.body["message"].get<std::string>(),
             Catch::StartsWith("Cannot tell yet whether Kueue has made a Workload for it"));
  mark_complete(cluster);
  route_answer plain = ask(cluster, {"jobs", "default", "plain"});
  CHECK(plain.status == 404);
  CHECK(plain.reason == "NoQueueSection");
  CHECK(plain.body["message"] == "Job default/plain has no queue label and no Workload.");
  route_answer adopted = ask(cluster, {"jobs", "default", "adopted"});
  REQUIRE(adopted.status == 200);
  CHECK(adopted.body["state"]["label"] == "Admitted");
  CHECK(adopted.body["queueName"] == "user-queue");
  CHECK(adopted.body["waiting"].is_null());
}

TEST_CASE("a prebuilt Workload is found by the name the job gives", "[kueue][queue-section]") {
  fixture_cluster cluster;
  cluster.load_yaml(healthy_queues);
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: prebuilt
  namespace: default
  uid: u-prebuilt
  labels: {kueue.x-k8s.io/queue-name: user-queue, kueue.x-k8s.io/prebuilt-workload-name: my-workload}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: my-workload, namespace: default}
spec: {queueName: user-queue, podSets: [{name: main, count: 1}]}
status:
  conditions:
  - {type: QuotaReserved, status: "False", reason: Pending, message: "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed", lastTransitionTime: "2026-11-29T10:00:00Z"}
)");
  mark_complete(cluster);
  route_answer answer = ask(cluster, {"jobs", "default", "prebuilt"});
  REQUIRE(answer.status == 200);
  CHECK(answer.body["workload"]["name"] == "my-workload");
  CHECK(answer.body["state"]["label"] == "Pending");
  CHECK(answer.body["waiting"]["message"] ==
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed");
}

TEST_CASE("a queued job whose Workload is not there yet, and what cannot be told", "[kueue][queue-section]") {
  fixture_cluster cluster;
  load(cluster, queues().get<std::vector<json>>());
  cluster.load_yaml(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: unrelated, namespace: default}
spec: {queueName: user-queue}
---
apiVersion: batch/v1
kind: Job
metadata: {name: new, namespace: default, uid: u-new, labels: {kueue.x-k8s.io/queue-name: user-queue}}
)");
  SECTION("Workloads not all read: cannot tell") {
    route_answer answer = ask(cluster, {"jobs", "default", "new"});
    REQUIRE(answer.status == 200);
    CHECK(answer.body["workload"].is_null());
    CHECK_THAT(answer.body["message"].get<std::string>(), Catch::StartsWith("Cannot tell"));
  }
  SECTION("all read: queued, no Workload yet") {
    mark_complete(cluster);
    route_answer answer = ask(cluster, {"jobs", "default", "new"});
    CHECK(answer.body["workload"].is_null());
    CHECK(answer.body["localQueue"]["name"] == "user-queue");
    CHECK(answer.body["clusterQueue"]["name"] == "cluster-queue");
    CHECK_THAT(answer.body["message"].get<std::string>(), Catch::Contains("has not created its Workload yet"));
  }
}

TEST_CASE("the Queue route's errors", "[kueue][queue-section]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: queued, namespace: default, uid: u-q, labels: {kueue.x-k8s.io/queue-name: user-queue}}
)");
  // Kueue not installed: no section, nothing read.
  CHECK(queue_block(*cluster.get("batch", "Job", "default", "queued"), cluster.context()).is_null());
  CHECK(ask(cluster, {"jobs", "default", "queued"}).reason == "NotServed");
  load(cluster, queues().get<std::vector<json>>());
  load(cluster, {workload(v1beta2, "default", "other", "user-queue", json::array())});
  // Job kinds are watched on demand: until their list is in, "not found" cannot be told.
  route_answer early = ask(cluster, {"jobs", "default", "missing"});
  CHECK(early.status == 503);
  CHECK(early.reason == "Unavailable");
  CHECK_THAT(early.body["message"].get<std::string>(), Catch::StartsWith("Cannot tell yet"));
  CHECK(ask(cluster, {"pytorchjobs", "default", "queued"}).reason == "NotServed");
  cluster.store.set_completeness({"batch", "Job"}, {list_completeness::state::complete, ""});
  CHECK(ask(cluster, {"jobs", "default", "missing"}).status == 404);
  CHECK(ask(cluster, {"jobs", "default", "missing"}).reason == "NotFound");
  CHECK(ask(cluster, {"cronjobs", "default", "queued"}).reason == "NotFound");
  CHECK(ask(cluster, {"jobs", "default"}).status == 400);
  // Names no object can have are refused as the other routes refuse them, and not echoed back.
  route_answer bad_namespace = ask(cluster, {"jobs", "Not_A_Namespace", "queued"});
  CHECK(bad_namespace.status == 400);
  CHECK(bad_namespace.reason == "BadRequest");
  const std::string long_name(5000, 'x');
  route_answer too_long = ask(cluster, {"jobs", "default", long_name});
  CHECK(too_long.status == 400);
  CHECK(too_long.reason == "BadRequest");
  CHECK(too_long.body["message"].get<std::string>().size() < 200);
}
