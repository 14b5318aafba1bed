// KubeRay's own controller (v1.6.2, tests/controllers/kuberay): a Ray Cluster created as a user
// would is given its head and worker pods and head Service by the controller; the test does
// only what the scheduler and the kubelet would (binds the pods to a node, then writes them
// Running and Ready), and sextantd's Ray Cluster view carries the state, reason and message
// KubeRay wrote, first provisioning and then ready, with its pods linked and counted per group.
//
// A Ray Cluster whose head never becomes ready (its image cannot be pulled) stays Provisioning in
// KubeRay's words, with HeadPodReady False and the container's reason; sextantd says the head is
// not ready and times the spec's "head not ready for 5 minutes" problem from the earlier of
// HeadPodReady and the head pod's own Ready (the threshold itself is unit-tested: a live test
// would wait 5 minutes).
//
// States the live tests reach: a Ray Cluster provisioning and ready, or stuck with its head not
// ready; a Ray Job Initializing
// (waiting for the cluster KubeRay made for it) and then Running with no job status, its
// submitter Job made. The job's own status comes from the Ray dashboard on the head pod, which
// nothing serves here, so a Ray Job's later states (a job status, Retrying, Complete, Failed)
// and a Ray Service's stay fixture-only (kuberay_section_test.cpp, tests/unit).

#include <algorithm>
#include <chrono>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "ray-live";
constexpr const char* node = "node-a";
const std::string clusters = std::string("/apis/ray.io/v1/namespaces/") + ns + "/rayclusters";
const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";

json container(const std::string& name) {
  return json{{"name", name}, {"image", "rayproject/ray:2.46.0"}};
}

// One head and a worker group of two, as a user would write it (KubeRay fills in the rest).
json ray_cluster() {
  json head = {{"rayStartParams", json::object()},
               {"template", {{"spec", {{"containers", json::array({container("ray-head")})}}}}}};
  json workers = {{"groupName", "gpu"},
                  {"replicas", 2},
                  {"minReplicas", 2},
                  {"maxReplicas", 2},
                  {"rayStartParams", json::object()},
                  {"template", {{"spec", {{"containers", json::array({container("ray-worker")})}}}}}};
  return json{{"apiVersion", "ray.io/v1"},
              {"kind", "RayCluster"},
              {"metadata", {{"name", "live"}, {"namespace", ns}}},
              {"spec", {{"headGroupSpec", head}, {"workerGroupSpecs", json::array({workers})}}}};
}

// What kube-scheduler does: bind the pod to the node.
void bind(admin_client& admin, const std::string& pod) {
  json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", pod}, {"namespace", ns}}},
                  {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  answer bound = admin.post(pods + "/" + pod + "/binding", binding);
  INFO(bound.text << bound.error);
  REQUIRE(bound.ok());
}

// What the kubelet writes once the pod's containers run and pass their probes.
void run_ready(admin_client& admin, const std::string& pod) {
  json current = get_object(admin, pods + "/" + pod);
  REQUIRE(current.is_object());
  const std::string now = ago(std::chrono::minutes(0));
  json statuses = json::array();
  for (const json& c : current["spec"]["containers"]) {
    statuses.push_back({{"name", c["name"]},
                        {"image", c["image"]},
                        {"imageID", ""},
                        {"ready", true},
                        {"started", true},
                        {"restartCount", 0},
                        {"state", {{"running", {{"startedAt", now}}}}}});
  }
  json conditions = json::array();
  for (const char* type : {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) {
    conditions.push_back({{"type", type}, {"status", "True"}, {"lastTransitionTime", now}});
  }
  write_status(admin, pods, current,
               {{"phase", "Running"},
                {"hostIP", "10.0.0.1"},
                {"podIP", "10.1.0." + std::to_string(pod.size())},
                {"startTime", now},
                {"conditions", conditions},
                {"containerStatuses", statuses}});
}

std::string pod_named(const json& list, const std::string& node_type, int index = 0) {
  for (const json& pod : list.value("items", json::array())) {
    if (pod["metadata"]["labels"].value("ray.io/node-type", "") == node_type && index-- == 0) {
      return pod["metadata"]["name"].get<std::string>();
    }
  }
  return "";
}

json ready_pods_of(const json& view) {
  json counts = json::object();
  for (const json& group : view.value("workerGroups", json::array())) {
    counts[group.value("name", "")] = {group.value("pods", -1), group.value("readyPods", -1)};
  }
  return counts;
}

}  // namespace

TEST_CASE("a Ray Cluster provisions and becomes ready in KubeRay's words, its pods made ready as a kubelet would",
          "[integration][controllers][kuberay]") {
  test_cluster cluster({.controllers = {"kuberay"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, "/api/v1/nodes", {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", node}}}});
  create(admin, clusters, ray_cluster());

  // KubeRay made the head pod, both workers and the head Service.
  json made = wait_for([&] { return get_object(admin, pods + "?labelSelector=ray.io%2Fcluster%3Dlive"); },
                       [](const json& l) { return l.is_object() && l.value("items", json::array()).size() == 3; });
  REQUIRE(made.value("items", json::array()).size() == 3);
  const std::string head = pod_named(made, "head");
  const std::string worker_a = pod_named(made, "worker", 0);
  const std::string worker_b = pod_named(made, "worker", 1);
  REQUIRE(!head.empty());
  REQUIRE(!worker_a.empty());
  REQUIRE(!worker_b.empty());
  json service =
      wait_for([&] { return get_object(admin, std::string("/api/v1/namespaces/") + ns + "/services/live-head-svc"); },
               [](const json& s) { return s.is_object(); });
  CHECK(service.is_object());

  // Scheduled, the head and one worker running and ready, the other worker not started.
  for (const std::string& pod : {head, worker_a, worker_b}) {
    bind(admin, pod);
  }
  run_ready(admin, head);
  run_ready(admin, worker_a);
  json provisioning = wait_for([&] { return get_object(admin, clusters + "/live"); },
                               [](const json& c) {
                                 return condition_of(c, "HeadPodReady").value("status", "") == "True" &&
                                        c.value("status", json::object()).value("readyWorkerReplicas", 0) == 1;
                               });
  const json provisioned = condition_of(provisioning, "RayClusterProvisioned");
  INFO(provisioning.dump());
  CHECK(provisioned.value("status", "") == "False");
  CHECK(provisioned.value("reason", "") == "RayClusterPodsProvisioning");
  CHECK(provisioned.value("message", "") == "RayCluster Pods are being provisioned for first time");
  CHECK(condition_of(provisioning, "HeadPodReady").value("reason", "") == "HeadPodRunningAndReady");
  CHECK(provisioning["status"].value("state", "") == "");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  const std::string view_path = std::string("/api/v1/kuberay/rayclusters/") + ns + "/live";
  json view = wait_for([&] { return live.get(view_path); },
                       [](const json& v) {
                         return ready_pods_of(v) == json{{"gpu", {2, 1}}};
                       },
                       std::chrono::seconds(30));
  INFO(view.dump());
  CHECK(view["state"]["label"] == "Provisioning");
  CHECK(view["state"]["reason"] == "RayClusterPodsProvisioning");
  CHECK(view["state"]["message"] == "RayCluster Pods are being provisioned for first time");
  CHECK(ready_pods_of(view) == json{{"gpu", {2, 1}}});
  json listed = json::array();
  for (const json& pod : view["pods"]["items"]) {
    listed.push_back({pod["name"], pod["nodeType"], pod["group"], pod["ready"]});
  }
  CHECK(listed.size() == 3);
  for (const auto& [name, type, group, ready] : std::vector<std::tuple<std::string, std::string, std::string, bool>>{
           {head, "head", "headgroup", true}, {worker_a, "worker", "gpu", true}, {worker_b, "worker", "gpu", false}}) {
    INFO(name);
    CHECK(std::find(listed.begin(), listed.end(), json{name, type, group, ready}) != listed.end());
  }
  bool head_linked = false;
  bool service_linked = false;
  for (const json& link : view.value("links", json::array())) {
    head_linked = head_linked || (link.value("rel", "") == "head-pod" && link.value("name", "") == head);
    service_linked =
        service_linked || (link.value("rel", "") == "head-service" && link.value("name", "") == "live-head-svc");
  }
  CHECK(head_linked);
  CHECK(service_linked);

  // The last worker comes up: KubeRay says ready, and says it once for good.
  run_ready(admin, worker_b);
  json ready = wait_for(
      [&] { return get_object(admin, clusters + "/live"); },
      [](const json& c) { return c.is_object() && c.value("status", json::object()).value("state", "") == "ready"; });
  INFO(ready.dump());
  const json first_time = condition_of(ready, "RayClusterProvisioned");
  CHECK(first_time.value("status", "") == "True");
  CHECK(first_time.value("reason", "") == "AllPodRunningAndReadyFirstTime");
  CHECK(first_time.value("message", "") == "All Ray Pods are ready for the first time");
  CHECK(ready["status"].value("readyWorkerReplicas", 0) == 2);
  CHECK(ready["status"].value("desiredWorkerReplicas", 0) == 2);

  json ready_view =
      wait_for([&] { return live.get(view_path); },
               [](const json& v) { return v.value("state", json::object()).value("label", "") == "Ready"; },
               std::chrono::seconds(30));
  INFO(ready_view.dump());
  CHECK(ready_view["state"]["label"] == "Ready");
  CHECK(ready_view["state"]["reason"] == "HeadPodRunningAndReady");
  CHECK(ready_view["state"]["message"] == "2 of 2 workers ready.");
  CHECK(ready_view["statusState"] == "ready");
  CHECK(ready_pods_of(ready_view) == json{{"gpu", {2, 2}}});
  CHECK(ready_view["workers"] == json{{"ready", 2}, {"desired", 2}});
}

TEST_CASE("a Ray Job waits for the Ray Cluster KubeRay made for it, then is submitted once the cluster is ready",
          "[integration][controllers][kuberay]") {
  test_cluster cluster({.controllers = {"kuberay"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  json head = {{"rayStartParams", json::object()},
               {"template", {{"spec", {{"containers", json::array({container("ray-head")})}}}}}};
  const std::string jobs = std::string("/apis/ray.io/v1/namespaces/") + ns + "/rayjobs";
  create(admin, jobs,
         {{"apiVersion", "ray.io/v1"},
          {"kind", "RayJob"},
          {"metadata", {{"name", "train"}, {"namespace", ns}}},
          {"spec", {{"entrypoint", "python train.py"}, {"rayClusterSpec", {{"headGroupSpec", head}}}}}});

  // KubeRay makes the job's cluster and waits for it.
  json initializing = wait_for([&] { return get_object(admin, jobs + "/train"); },
                               [](const json& j) {
                                 const json status = j.is_object() ? j.value("status", json::object()) : json::object();
                                 return status.value("jobDeploymentStatus", "") == "Initializing" &&
                                        !status.value("rayClusterName", "").empty();
                               });
  INFO(initializing.dump());
  REQUIRE(initializing["status"].value("jobDeploymentStatus", "") == "Initializing");
  const std::string cluster_name = initializing["status"].value("rayClusterName", "");
  REQUIRE(cluster_name.rfind("train-", 0) == 0);
  // KubeRay writes the cluster's name into the job's status before it makes the cluster.
  const json cluster_made = wait_for([&] { return get_object(admin, clusters + "/" + cluster_name); },
                                     [](const json& c) { return c.is_object(); });
  CHECK(cluster_made.is_object());

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  const std::string view_path = std::string("/api/v1/kuberay/rayjobs/") + ns + "/train";
  json view =
      wait_for([&] { return live.get(view_path); },
               [](const json& v) { return v.value("state", json::object()).value("reason", "") == "Initializing"; },
               std::chrono::seconds(30));
  INFO(view.dump());
  CHECK(view["state"] == json{{"label", "Pending"},
                              {"reason", "Initializing"},
                              {"message", "Waiting for the Ray Cluster to be ready."}});
  CHECK(view["rayCluster"] == cluster_name);
  bool linked = false;
  for (const json& link : view.value("links", json::array())) {
    linked = linked || (link.value("rel", "") == "ray-cluster" && link.value("name", "") == cluster_name);
  }
  CHECK(linked);

  // Its head pod scheduled and ready: KubeRay submits the job through a batch Job and says
  // Running; what the job does next only the Ray dashboard could tell it.
  json made = wait_for([&] { return get_object(admin, pods + "?labelSelector=ray.io%2Fcluster%3D" + cluster_name); },
                       [](const json& l) { return l.is_object() && !l.value("items", json::array()).empty(); });
  const std::string head_pod = pod_named(made, "head");
  REQUIRE(!head_pod.empty());
  bind(admin, head_pod);
  run_ready(admin, head_pod);
  json running = wait_for([&] { return get_object(admin, jobs + "/train"); },
                          [](const json& j) {
                            return j.is_object() &&
                                   j.value("status", json::object()).value("jobDeploymentStatus", "") == "Running";
                          });
  INFO(running.dump());
  REQUIRE(running["status"].value("jobDeploymentStatus", "") == "Running");
  CHECK(get_object(admin, std::string("/apis/batch/v1/namespaces/") + ns + "/jobs/train").is_object());
  json running_view =
      wait_for([&] { return live.get(view_path); },
               [](const json& v) {
                 const json state = v.value("state", json::object());
                 return !state.value("label", "").empty() &&
                        state.value("message", json()) != json("Waiting for the Ray Cluster to be ready.");
               },
               std::chrono::seconds(30));
  INFO(running_view.dump());
  // KubeRay wrote no job status (the dashboard it asks is not there), so not yet started.
  CHECK(running["status"].value("jobStatus", "") == "");
  CHECK(running_view["state"] ==
        json{{"label", "Pending"}, {"reason", nullptr}, {"message", "Submitted; the Ray job has not started yet."}});
}

TEST_CASE("a Ray Cluster whose head never becomes ready is KubeRay's Provisioning and sextantd's head problem",
          "[integration][controllers][kuberay]") {
  test_cluster cluster({.controllers = {"kuberay"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, "/api/v1/nodes", {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", node}}}});
  json head_group = {{"rayStartParams", json::object()},
                     {"template", {{"spec", {{"containers", json::array({container("ray-head")})}}}}}};
  create(admin, clusters,
         {{"apiVersion", "ray.io/v1"},
          {"kind", "RayCluster"},
          {"metadata", {{"name", "stuck"}, {"namespace", ns}}},
          {"spec", {{"headGroupSpec", head_group}}}});

  json made = wait_for([&] { return get_object(admin, pods + "?labelSelector=ray.io%2Fcluster%3Dstuck"); },
                       [](const json& l) { return l.is_object() && l.value("items", json::array()).size() == 1; });
  const std::string head = pod_named(made, "head");
  REQUIRE(!head.empty());
  bind(admin, head);
  // What the kubelet writes once it cannot pull the image.
  const std::string since = ago(std::chrono::minutes(0));
  json current = get_object(admin, pods + "/" + head);
  REQUIRE(current.is_object());
  write_status(
      admin, pods, current,
      {{"phase", "Pending"},
       {"hostIP", "10.0.0.1"},
       {"startTime", since},
       {"conditions", json::array({{{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", since}},
                                   {{"type", "Initialized"}, {"status", "True"}, {"lastTransitionTime", since}},
                                   {{"type", "ContainersReady"},
                                    {"status", "False"},
                                    {"reason", "ContainersNotReady"},
                                    {"message", "containers with unready status: [ray-head]"},
                                    {"lastTransitionTime", since}},
                                   {{"type", "Ready"},
                                    {"status", "False"},
                                    {"reason", "ContainersNotReady"},
                                    {"message", "containers with unready status: [ray-head]"},
                                    {"lastTransitionTime", since}}})},
       {"containerStatuses",
        json::array({{{"name", "ray-head"},
                      {"image", "rayproject/ray:2.46.0"},
                      {"imageID", ""},
                      {"ready", false},
                      {"started", false},
                      {"restartCount", 0},
                      {"state",
                       {{"waiting",
                         {{"reason", "ImagePullBackOff"},
                          {"message", "Back-off pulling image \"rayproject/ray:2.46.0\""}}}}}}})}});

  // KubeRay copies the head pod's Ready into HeadPodReady, the waiting container's reason for
  // ContainersNotReady (FindHeadPodReadyCondition: controllers/ray/utils/util.go), and keeps
  // RayClusterProvisioned False: the cluster has never been ready.
  json stuck =
      wait_for([&] { return get_object(admin, clusters + "/stuck"); },
               [](const json& c) { return condition_of(c, "HeadPodReady").value("reason", "") == "ImagePullBackOff"; });
  INFO(stuck.dump());
  REQUIRE(condition_of(stuck, "HeadPodReady").value("status", "") == "False");
  CHECK(condition_of(stuck, "RayClusterProvisioned").value("status", "") == "False");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  const std::string view_path = std::string("/api/v1/kuberay/rayclusters/") + ns + "/stuck";
  json view = wait_for([&] { return live.get(view_path); },
                       [](const json& v) { return v.value("headNotReadySince", json()).is_string(); },
                       std::chrono::seconds(30));
  INFO(view.dump());
  CHECK(view["state"]["label"] == "Provisioning");
  CHECK(view["state"]["reason"] == "RayClusterPodsProvisioning");
  CHECK(view["state"]["message"].get<std::string>().find("The head is not ready (ImagePullBackOff).") !=
        std::string::npos);
  // The earlier of KubeRay's HeadPodReady, False since its first reconcile (the head not found
  // yet), and the head pod's own Ready, False since the kubelet wrote it.
  const std::string operator_since = condition_of(stuck, "HeadPodReady").value("lastTransitionTime", "");
  REQUIRE(!operator_since.empty());
  CHECK(view["headNotReadySince"] == std::min(operator_since, since));

  // Not ready for less than 5 minutes: judged, and no problem yet.
  const std::string problems_path = "/api/v1/problems?category=kuberay";
  json problems = wait_for([&] { return live.get(problems_path); },
                           [](const json& p) {
                             for (const json& c : p.value("categories", json::array())) {
                               if (c.value("id", "") == "kuberay") {
                                 return c.value("evaluated", false);
                               }
                             }
                             return false;
                           },
                           std::chrono::seconds(30));
  INFO(problems.dump());
  CHECK(problems["problems"].empty());
}
