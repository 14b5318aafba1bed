// The KubeRay section against a real API server, with no KubeRay operator: the upstream KubeRay
// CRDs (v1.6.2) are installed, and a Ray Cluster with its pods, a retrying and a failed Ray Job,
// and a Ray Service mid-upgrade are written with their status through /status, as the operator
// and kubelet would. `sextantd --kubeconfig` then serves the views `sextantd --snapshot` gives
// over the same objects dumped from the server, masked the same way.

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
const std::string ray = std::string("/apis/ray.io/v1/namespaces/") + ns + "/";
const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";

json pod_template(const std::string& container) {
  return json{{"spec", {{"containers", json::array({{{"name", container}, {"image", "rayproject/ray:2.46.0"}}})}}}};
}

json head_group() {
  return json{{"rayStartParams", json::object()}, {"template", pod_template("ray-head")}};
}

json object(const std::string& kind, const std::string& name, const json& spec) {
  return json{
      {"apiVersion", "ray.io/v1"}, {"kind", kind}, {"metadata", {{"name", name}, {"namespace", ns}}}, {"spec", spec}};
}

json ray_pod(const std::string& name, const std::string& type, const std::string& group) {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", ns},
                {"labels", {{"ray.io/cluster", "scaling"}, {"ray.io/node-type", type}, {"ray.io/group", group}}}}},
              {"spec", pod_template("ray")["spec"]}};
}

void write_objects(admin_client& admin) {
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});

  json groups = json::array({{{"groupName", "gpu"},
                              {"replicas", 2},
                              {"minReplicas", 1},
                              {"maxReplicas", 2147483647},
                              {"rayStartParams", json::object()},
                              {"template", pod_template("ray-worker")}}});
  json scaling = create(
      admin, ray + "rayclusters",
      object("RayCluster", "scaling",
             {{"enableInTreeAutoscaling", true}, {"headGroupSpec", head_group()}, {"workerGroupSpecs", groups}}));
  write_status(
      admin, ray + "rayclusters", scaling,
      {{"state", "ready"},
       {"readyWorkerReplicas", 1},
       {"desiredWorkerReplicas", 2},
       {"conditions", json::array({condition("RayClusterProvisioned", "True", "AllPodRunningAndReadyFirstTime",
                                             "All Ray Pods are ready for the first time", std::chrono::minutes(30)),
                                   condition("HeadPodReady", "False", "ContainersNotReady", "containers not ready",
                                             std::chrono::minutes(10))})}});
  int index = 0;
  for (const auto& [name, type, group, ready] : std::vector<std::tuple<std::string, std::string, std::string, bool>>{
           {"scaling-head", "head", "headgroup", false},
           {"scaling-gpu-worker-a", "worker", "gpu", true},
           {"scaling-gpu-worker-b", "worker", "gpu", false}}) {
    json pod = create(admin, pods, ray_pod(name, type, group));
    write_status(
        admin, pods, pod,
        {{"phase", ready ? "Running" : "Pending"},
         {"conditions",
          json::array({condition("Ready", ready ? "True" : "False", "", "", std::chrono::minutes(10 + index++))})}});
  }

  json retry = create(admin, ray + "rayjobs",
                      object("RayJob", "retry",
                             {{"entrypoint", "HF_TOKEN=hf_livesecret python train.py --api-key livekey --epochs 2"},
                              {"backoffLimit", 2},
                              {"rayClusterSpec", {{"headGroupSpec", head_group()}}}}));
  write_status(admin, ray + "rayjobs", retry, {{"jobDeploymentStatus", "Retrying"}, {"failed", 1}});
  json failed =
      create(admin, ray + "rayjobs",
             object("RayJob", "failed",
                    {{"entrypoint", "python train.py"}, {"rayClusterSpec", {{"headGroupSpec", head_group()}}}}));
  write_status(admin, ray + "rayjobs", failed,
               {{"jobDeploymentStatus", "Failed"},
                {"jobStatus", "FAILED"},
                {"reason", "AppFailed"},
                {"failed", 1},
                {"rayClusterName", "failed-abcde"},
                {"message", "last lines: fetching https://bob:livepassword@data.example.com/x"},
                {"endTime", ago(std::chrono::minutes(20))}});

  const std::string config =
      "applications:\n- name: llm\n  import_path: serve:app\n  runtime_env:\n    env_vars: {HF_TOKEN: liveenv}\n"
      "  args: {max_tokens: 64, api_key: liveapikey}\n";
  json serve = create(admin, ray + "rayservices",
                      object("RayService", "serve",
                             {{"serveConfigV2", config}, {"rayClusterConfig", {{"headGroupSpec", head_group()}}}}));
  write_status(admin, ray + "rayservices", serve,
               {{"activeServiceStatus",
                 {{"rayClusterName", "serve-old12"}, {"applicationStatuses", {{"llm", {{"status", "RUNNING"}}}}}}},
                {"pendingServiceStatus",
                 {{"rayClusterName", "serve-new34"},
                  {"applicationStatuses", {{"llm", {{"status", "UNHEALTHY"}, {"message", "crashed"}}}}}}},
                {"conditions",
                 json::array({condition("Ready", "True", "NonZeroServeEndpoints",
                                        "Number of serve endpoints is greater than 0", std::chrono::minutes(60)),
                              condition("UpgradeInProgress", "True", "BothActivePendingClustersExist",
                                        "Both active and pending Ray clusters exist", std::chrono::minutes(5))})}});
}

fs::path dump_snapshot(admin_client& admin, const fs::path& dir) {
  // Nodes too: the GPU Operator's MIG rule reads them, so its category is judged in both modes.
  return dump_lists(
      admin, dir,
      {"/apis/ray.io/v1/rayclusters", "/apis/ray.io/v1/rayjobs", "/apis/ray.io/v1/rayservices", "/api/v1/pods",
       "/apis/batch/v1/jobs", "/api/v1/nodes", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"});
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the KubeRay views --snapshot serves over the same objects",
          "[integration][kuberay]") {
  test_cluster cluster({.crds = {upstream_crds("kuberay").string()}});
  admin_client admin = cluster.admin();
  write_objects(admin);

  live_and_snapshot daemons(cluster.env("KUBECONFIG_TOKEN"), dump_snapshot(admin, cluster.dir() / "snapshot"),
                            cluster.dir());
  REQUIRE(daemons.ready());
  const sextantd_process& live = daemons.live;
  const sextantd_process& files = daemons.files;

  for (const auto& [resource, names] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"rayclusters", {"scaling"}}, {"rayjobs", {"retry", "failed"}}, {"rayservices", {"serve"}}}) {
    const std::string list = "/api/v1/kuberay/" + resource;
    json from_files = files.get(list);
    CHECK(from_files["items"].size() == names.size());
    CHECK(compare_page(live.url(), list, from_files) == std::vector<std::string>{});
    for (const std::string& name : names) {
      const std::string details = list + "/" + ns + "/" + name;
      INFO("GET " << details);
      CHECK(compare_page(live.url(), details, files.get(details)) == std::vector<std::string>{});
    }
  }
  const std::string problems_path = "/api/v1/problems?category=kuberay";
  CHECK(compare_page(live.url(), problems_path, files.get(problems_path)) == std::vector<std::string>{});

  json scaling = live.get("/api/v1/kuberay/rayclusters/ml/scaling");
  CHECK(scaling["state"]["label"] == "Head not ready");
  CHECK(scaling["workerGroups"][0]["range"] == "at least 1, no upper limit");
  CHECK(scaling["workerGroups"][0]["pods"] == 2);
  CHECK(scaling["workerGroups"][0]["readyPods"] == 1);
  json retry = live.get("/api/v1/kuberay/rayjobs/ml/retry");
  CHECK(retry["state"]["label"] == "Retrying");
  CHECK(retry["attempts"]["limit"] == 3);
  json serve = live.get("/api/v1/kuberay/rayservices/ml/serve");
  CHECK(serve["state"]["label"] == "Upgrading");
  CHECK(serve["state"]["message"].get<std::string>().find("keeps serving") != std::string::npos);

  // Nothing masking hides reaches a list, a details answer or a problem.
  std::string everything = files.get("/api/v1/kuberay/rayjobs").dump() + retry.dump() + serve.dump() +
                           live.get("/api/v1/kuberay/rayjobs/ml/failed").dump() + live.get(problems_path).dump() +
                           live.get("/api/v1/kuberay/rayservices").dump();
  for (const char* secret : {"hf_livesecret", "livekey", "livepassword", "liveenv", "liveapikey"}) {
    INFO(secret);
    CHECK(everything.find(secret) == std::string::npos);
  }
  // The problem engine evaluates on its own schedule after the caches sync: wait for a round.
  json problems = live.get(problems_path);
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
       problems.value("problems", json::array()).size() < 2 && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    problems = live.get(problems_path);
  }
  INFO(problems.dump().substr(0, 1500));
  std::set<std::string> names;
  for (const json& p : problems["problems"]) {
    names.insert(p.value("name", ""));
  }
  // scaling: head not ready for 10 minutes; failed: failed 20 minutes ago; serve: its pending
  // application is unhealthy but only just seen (5 minutes from first seen), so not yet.
  CHECK(names.count("scaling") == 1);
  CHECK(names.count("failed") == 1);
  CHECK(names.count("retry") == 0);
}
