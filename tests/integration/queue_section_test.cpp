// The Queue section live: a PyTorchJob, a JobSet and a LeaderWorkerSet — kinds no section shows —
// created under their operators' real CRDs with their Workloads in a real API server (no
// operator runs: the Workloads are written as Kueue writes them), and their Queue sections read through
// `sextantd --kubeconfig`. The daemon watches each job kind only once a Queue page asks for it,
// so the first answers may say "cannot tell yet" (503); then every job's Workload is found.
#include <cctype>
#include <map>
#include <thread>

#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "ml";

struct job_kind {
  std::string resource;  // the Queue route's segment and the API plural
  std::string group;
  std::string version;
  std::string kind;
};

const std::vector<job_kind> job_kinds = {
    {"pytorchjobs", "kubeflow.org", "v1", "PyTorchJob"},
    {"jobsets", "jobset.x-k8s.io", "v1alpha2", "JobSet"},
    {"leaderworkersets", "leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"},
};

std::string lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

json pod_template() {
  return {{"spec",
           {{"restartPolicy", "Never"},
            {"containers",
             json::array({{{"name", "main"}, {"image", "busybox"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}})}}}};
}

// The least each operator's CRD schema requires of its job.
json job_spec(const job_kind& kind) {
  if (kind.kind == "PyTorchJob") {
    return {{"pytorchReplicaSpecs",
             {{"Master", {{"replicas", 1}, {"restartPolicy", "OnFailure"}, {"template", pod_template()}}}}}};
  }
  if (kind.kind == "JobSet") {
    return {{"replicatedJobs",
             json::array(
                 {{{"name", "workers"}, {"replicas", 1}, {"template", {{"spec", {{"template", pod_template()}}}}}}})}};
  }
  json worker = pod_template();
  worker["spec"].erase("restartPolicy");
  return {{"replicas", 1}, {"leaderWorkerTemplate", {{"size", 1}, {"workerTemplate", worker}}}};
}

json job_object(const job_kind& kind, const std::string& name, bool queue_label) {
  json metadata = {{"name", name}, {"namespace", ns}};
  if (queue_label) {
    metadata["labels"] = {{"kueue.x-k8s.io/queue-name", "user-queue"}};
  }
  return {{"apiVersion", kind.group + "/" + kind.version},
          {"kind", kind.kind},
          {"metadata", metadata},
          {"spec", job_spec(kind)}};
}

// A Workload as Kueue makes one for a job: labelled with the job's uid, owned by the job.
json workload_object(const job_kind& kind, const json& job) {
  const std::string name = lower(kind.kind) + "-" + job["metadata"]["name"].get<std::string>() + "-1a2b3";
  return {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
          {"kind", "Workload"},
          {"metadata",
           {{"name", name},
            {"namespace", ns},
            {"labels", {{"kueue.x-k8s.io/job-uid", job["metadata"]["uid"]}}},
            {"ownerReferences", json::array({{{"apiVersion", job["apiVersion"]},
                                              {"kind", job["kind"]},
                                              {"name", job["metadata"]["name"]},
                                              {"uid", job["metadata"]["uid"]},
                                              {"controller", true}}})}}},
          {"spec",
           {{"queueName", "user-queue"},
            {"podSets", json::array({{{"name", "main"}, {"count", 1}, {"template", pod_template()}}})}}}};
}

}  // namespace

TEST_CASE("the Queue section works live for job kinds no section shows", "[integration][kueue]") {
  // The operators' own CRDs, from their Go modules at the versions tests/upstream pins.
  test_cluster cluster({{upstream_crds("kueue").string(), upstream_crds("training-operator").string(),
                         upstream_crds("jobset").string(), upstream_crds("lws").string()}});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());

  const json pending = {
      {"conditions",
       json::array({{{"type", "QuotaReserved"},
                     {"status", "False"},
                     {"reason", "Pending"},
                     {"message",
                      "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, "
                      "1 more needed"},
                     {"lastTransitionTime", "2026-11-29T10:00:00Z"}}})}};
  // The queues the Workloads wait in, Active as Kueue reports them: the scheduler weighed the
  // Workloads against their quota, so both queues were there and working.
  const std::string kueue = "/apis/kueue.x-k8s.io/v1beta2";
  const json queues[] = {{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                          {"kind", "ClusterQueue"},
                          {"metadata", {{"name", "cluster-queue"}}},
                          {"spec", {{"namespaceSelector", json::object()}}}},
                         {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                          {"kind", "LocalQueue"},
                          {"metadata", {{"name", "user-queue"}, {"namespace", ns}}},
                          {"spec", {{"clusterQueue", "cluster-queue"}}}}};
  for (const json& queue : queues) {
    const bool local = queue["kind"] == "LocalQueue";
    const std::string collection =
        kueue + (local ? "/namespaces/" + std::string(ns) + "/localqueues" : "/clusterqueues");
    json made = create(admin, collection, queue);
    write_status(admin, collection, made,
                 {{"conditions",
                   json::array({condition("Active", "True", "Ready",
                                          local ? "Can submit new workloads to localQueue" : "Can admit new workloads",
                                          std::chrono::minutes(60))})}});
  }
  std::map<std::string, std::string> workload_of;
  for (const job_kind& kind : job_kinds) {
    // The PyTorchJob has no queue label: its section shows because its Workload exists.
    const bool labelled = kind.resource != "pytorchjobs";
    answer made = admin.post("/apis/" + kind.group + "/" + kind.version + "/namespaces/" + ns + "/" + kind.resource,
                             job_object(kind, "train", labelled));
    REQUIRE(made.ok());
    json workload = workload_object(kind, made.body());
    answer written = admin.post(std::string("/apis/kueue.x-k8s.io/v1beta2/namespaces/") + ns + "/workloads", workload);
    REQUIRE(written.ok());
    json with_status = written.body();
    with_status["status"] = pending;
    const std::string name = workload["metadata"]["name"];
    REQUIRE(admin
                .put(std::string("/apis/kueue.x-k8s.io/v1beta2/namespaces/") + ns + "/workloads/" + name + "/status",
                     with_status)
                .ok());
    workload_of[kind.resource] = name;
  }

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));

  for (const job_kind& kind : job_kinds) {
    INFO(kind.resource);
    const std::string path = "/api/v1/kueue/queue/" + kind.resource + "/" + ns + "/train";
    answer got = http_get(live.url(), path);
    // The first asks start the job kind's watch and the Workloads' watch: "cannot tell yet"
    // (a 503, or a block without its Workload) until both lists are in.
    for (int attempt = 0; attempt < 100 && !(got.status == 200 && got.body()["workload"].is_object()); ++attempt) {
      if (got.status != 200) {
        CHECK(got.status == 503);
        CHECK(got.body()["error"]["reason"] == "Unavailable");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      got = http_get(live.url(), path);
    }
    REQUIRE(got.status == 200);
    json block = got.body();
    CHECK(block["workload"]["name"] == workload_of[kind.resource]);
    CHECK(block["workload"]["path"] == std::string("/api/v1/kueue/workloads/") + ns + "/" + workload_of[kind.resource]);
    CHECK(block["state"]["label"] == "Pending");
    CHECK(block["queueName"] == "user-queue");
    CHECK(
        block["waiting"]["message"] ==
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed");
  }

  // A job that does not exist, once its kind is read, is not found; a kind not served is not served.
  answer missing = http_get(live.url(), std::string("/api/v1/kueue/queue/jobsets/") + ns + "/no-such-job");
  CHECK(missing.status == 404);
  CHECK(missing.body()["error"]["reason"] == "NotFound");
  answer unserved = http_get(live.url(), std::string("/api/v1/kueue/queue/rayjobs/") + ns + "/train");
  CHECK(unserved.status == 404);
  CHECK(unserved.body()["error"]["reason"] == "NotServed");
}
