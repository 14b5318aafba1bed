// The JobSet section against a real API server, with no JobSet controller: the upstream JobSet
// CRD is installed, and JobSets, their Jobs (with the JobSet labels and owner references) and
// pods are written with their status through /status, as the controllers and kubelet would.
// `sextantd --kubeconfig` then serves the views `sextantd --snapshot` gives over the same objects
// dumped from the server, Kueue's Queue block included, and the Jobs and pods of a JobSet's
// details follow the cluster.

#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"
#include "util/time.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace fs = std::filesystem;

namespace {

constexpr const char* ns = "ml";
const std::string jobsets = std::string("/apis/jobset.x-k8s.io/v1alpha2/namespaces/") + ns + "/jobsets";
const std::string jobs = std::string("/apis/batch/v1/namespaces/") + ns + "/jobs";
const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";

json pod_spec() {
  return json{{"restartPolicy", "Never"},
              {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}};
}

json jobset(const std::string& name, const json& spec_extra) {
  json spec = {{"replicatedJobs", json::array({{{"name", "workers"},
                                                {"replicas", 2},
                                                {"template", {{"spec", {{"template", {{"spec", pod_spec()}}}}}}}}})}};
  spec.update(spec_extra);
  return json{{"apiVersion", "jobset.x-k8s.io/v1alpha2"},
              {"kind", "JobSet"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", spec}};
}

json child_labels(const json& owner, int index) {
  return json{
      {"jobset.sigs.k8s.io/jobset-name", owner["metadata"]["name"]},
      {"jobset.sigs.k8s.io/jobset-uid", owner["metadata"]["uid"]},
      {"jobset.sigs.k8s.io/replicatedjob-name", "workers"},
      {"jobset.sigs.k8s.io/job-index", std::to_string(index)},
      {"jobset.sigs.k8s.io/restart-attempt", std::to_string(get_int(owner, {"status", "restarts"}).value_or(0))}};
}

json child_job(const json& owner, int index) {
  const std::string name = owner["metadata"]["name"].get<std::string>() + "-workers-" + std::to_string(index);
  json reference = {
      {"apiVersion", "jobset.x-k8s.io/v1alpha2"}, {"kind", "JobSet"},   {"name", owner["metadata"]["name"]},
      {"uid", owner["metadata"]["uid"]},          {"controller", true}, {"blockOwnerDeletion", true}};
  return json{{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", name},
                {"namespace", ns},
                {"labels", child_labels(owner, index)},
                {"ownerReferences", json::array({reference})}}},
              {"spec", {{"backoffLimit", 0}, {"template", {{"spec", pod_spec()}}}}}};
}

json child_pod(const json& owner, const json& job, int index, const std::string& suffix) {
  json labels = child_labels(owner, index);
  labels["batch.kubernetes.io/job-name"] = job["metadata"]["name"];
  json reference = {{"apiVersion", "batch/v1"},      {"kind", "Job"},      {"name", job["metadata"]["name"]},
                    {"uid", job["metadata"]["uid"]}, {"controller", true}, {"blockOwnerDeletion", true}};
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", job["metadata"]["name"].get<std::string>() + "-" + suffix},
                {"namespace", ns},
                {"labels", labels},
                {"ownerReferences", json::array({reference})}}},
              {"spec", pod_spec()}};
}

// trainer: running, 1 of maxRestarts 2 used (one left: a problem), two Jobs, a running and a
//          pending pod. broken: failed 10 minutes ago, naming broken-workers-0, which failed
//          for its backoff limit. pipeline: starting under an InOrder startup policy.
void write_jobsets(admin_client& admin) {
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});

  json queued = jobset("trainer", {{"failurePolicy", {{"maxRestarts", 2}}}});
  queued["metadata"]["labels"] = {{"kueue.x-k8s.io/queue-name", "training"}};
  json trainer = create(admin, jobsets, queued);
  // Kueue's Workload for it, as Kueue's jobframework names, labels and owns it.
  json owner = {{"apiVersion", "jobset.x-k8s.io/v1alpha2"}, {"kind", "JobSet"},   {"name", "trainer"},
                {"uid", trainer["metadata"]["uid"]},        {"controller", true}, {"blockOwnerDeletion", true}};
  json workload = {
      {"apiVersion", "kueue.x-k8s.io/v1beta2"},
      {"kind", "Workload"},
      {"metadata",
       {{"name", "jobset-trainer-5d8c1"},
        {"namespace", ns},
        {"labels", {{"kueue.x-k8s.io/job-uid", trainer["metadata"]["uid"]}}},
        {"ownerReferences", json::array({owner})}}},
      {"spec",
       {{"queueName", "training"},
        {"podSets", json::array({{{"name", "workers"}, {"count", 2}, {"template", {{"spec", pod_spec()}}}}})}}}};
  create(admin, std::string("/apis/kueue.x-k8s.io/v1beta2/namespaces/") + ns + "/workloads", workload);
  json trainer_status = {
      {"restarts", 1},
      {"restartsCountTowardsMax", 1},
      {"replicatedJobsStatus",
       json::array(
           {{{"name", "workers"}, {"ready", 1}, {"active", 2}, {"succeeded", 0}, {"failed", 0}, {"suspended", 0}}})}};
  write_status(admin, jobsets, trainer, trainer_status);
  trainer["status"] = trainer_status;
  for (int index = 0; index < 2; ++index) {
    json job = create(admin, jobs, child_job(trainer, index));
    write_status(admin, jobs, job, {{"active", 1}, {"startTime", ago(std::chrono::minutes(30))}});
    json pod = create(admin, pods, child_pod(trainer, job, index, "a" + std::to_string(index)));
    write_status(admin, pods, pod, {{"phase", index == 0 ? "Running" : "Pending"}});
  }

  json broken = create(admin, jobsets, jobset("broken", {{"failurePolicy", {{"maxRestarts", 0}}}}));
  write_status(admin, jobsets, broken,
               {{"terminalState", "Failed"},
                {"conditions", json::array({condition("Failed", "True", "ReachedMaxRestarts",
                                                      "jobset failed due to reaching max number of restarts (first "
                                                      "failed job: broken-workers-0)",
                                                      std::chrono::minutes(10))})}});
  json failed_job = create(admin, jobs, child_job(broken, 0));
  const std::string backoff = "Job has reached the specified backoff limit";
  write_status(
      admin, jobs, failed_job,
      {{"failed", 1},
       {"startTime", ago(std::chrono::minutes(20))},
       {"conditions",
        json::array({condition("FailureTarget", "True", "BackoffLimitExceeded", backoff, std::chrono::minutes(11)),
                     condition("Failed", "True", "BackoffLimitExceeded", backoff, std::chrono::minutes(11))})}});

  json pipeline = create(admin, jobsets, jobset("pipeline", {{"startupPolicy", {{"startupPolicyOrder", "InOrder"}}}}));
  write_status(
      admin, jobsets, pipeline,
      {{"conditions", json::array({condition("StartupPolicyInProgress", "True", "InOrderStartupPolicyInProgress",
                                             "in order startup policy is in progress", std::chrono::minutes(1))})}});
}

fs::path dump_snapshot(admin_client& admin, const fs::path& dir) {
  // Nodes too: the GPU Operator's MIG rule reads them, so its category is judged in both modes.
  std::vector<std::string> paths = {"/apis/jobset.x-k8s.io/v1alpha2/jobsets", "/apis/batch/v1/jobs", "/api/v1/pods",
                                    "/api/v1/nodes"};
  // The CRDs, so that snapshot mode serves the kinds the server serves (a kind without objects
  // is served by its CRD), and every Kueue kind, so that it has read them as the live daemon has.
  paths.push_back("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
  for (const char* plural : {"workloads", "localqueues", "clusterqueues", "resourceflavors", "admissionchecks",
                             "cohorts", "workloadpriorityclasses"}) {
    paths.push_back(std::string("/apis/kueue.x-k8s.io/v1beta2/") + plural);
  }
  return dump_lists(admin, dir, paths);
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the JobSet views --snapshot serves over the same objects",
          "[integration][jobset]") {
  test_cluster cluster({.crds = {upstream_crds("jobset").string(), upstream_crds("kueue").string()}});
  admin_client admin = cluster.admin();
  write_jobsets(admin);

  fs::path snapshot = dump_snapshot(admin, cluster.dir() / "snapshot");
  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  sextantd_process files({"--snapshot", snapshot.string()}, cluster.dir() / "snapshot.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  REQUIRE(files.wait_ready(std::chrono::seconds(30)));

  const std::string list = "/api/v1/jobset/jobsets";
  json from_files = files.get(list);
  REQUIRE(from_files["items"].size() == 3);
  CHECK(compare_page(live.url(), list, from_files) == std::vector<std::string>{});
  for (const char* name : {"trainer", "broken", "pipeline"}) {
    const std::string details = list + "/" + ns + "/" + name;
    INFO("GET " << details);
    CHECK(compare_page(live.url(), details, files.get(details)) == std::vector<std::string>{});
  }
  CHECK(compare_page(live.url(), "/api/v1/problems?category=jobset", files.get("/api/v1/problems?category=jobset")) ==
        std::vector<std::string>{});

  json trainer = live.get(list + "/" + ns + "/trainer");
  CHECK(trainer["state"]["label"] == "Running");
  CHECK(trainer["restarts"]["left"] == 1);
  CHECK(trainer["jobs"]["total"] == 2);
  CHECK(trainer["pods"]["total"] == 2);
  CHECK(trainer["pods"]["items"][0]["phase"] == "Pending");
  // Kueue's Queue block, through the Workload labelled with the JobSet's uid.
  REQUIRE(trainer["queue"].is_object());
  CHECK(trainer["queue"]["workload"]["name"] == "jobset-trainer-5d8c1");
  json broken = live.get(list + "/" + ns + "/broken");
  CHECK(broken["state"]["label"] == "Failed");
  CHECK(broken["failedJob"]["name"] == "broken-workers-0");
  CHECK(broken["failedJob"]["exists"] == true);
  CHECK(broken["failedJob"]["reason"] == "BackoffLimitExceeded");
  CHECK(live.get(list + "/" + ns + "/pipeline")["state"]["label"] == "Starting");
  json problems = live.get("/api/v1/problems?category=jobset");
  std::set<std::string> names;
  for (const json& p : problems["problems"]) {
    names.insert(p.value("name", ""));
  }
  CHECK(names == std::set<std::string>{"broken", "trainer"});

  // The details' Jobs and pods follow the cluster: a third pod shows, and a deleted Job goes.
  json trainer_object = admin.get(jobsets + "/trainer").body();
  json job = admin.get(jobs + "/trainer-workers-1").body();
  create(admin, pods, child_pod(trainer_object, job, 1, "b1"));
  json grown = wait_for([&] { return live.get(list + "/" + ns + "/trainer"); },
                        [](const json& v) { return v["pods"].value("total", 0) == 3; });
  CHECK(grown["pods"]["total"] == 3);
  // Background: an orphaning delete would wait for a garbage collector this cluster does not run.
  REQUIRE(admin.remove(jobs + "/broken-workers-0?propagationPolicy=Background").ok());
  json gone = wait_for([&] { return live.get(list + "/" + ns + "/broken"); },
                       [](const json& v) { return v["failedJob"].value("exists", json(true)) == json(false); });
  CHECK(gone["failedJob"]["exists"] == false);
}
