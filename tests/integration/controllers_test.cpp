// The real kube-scheduler and kube-controller-manager write the statuses; sextantd must show
// what they wrote. The test writes only what a user or a kubelet would (a node and its status,
// a DRA driver's slice, claims, pods, a Job, pod phases) and waits for the controller. The
// expected words are the controllers' own at the version tests/apiserver pins (v1.37.2): a
// version bump that changes them shows up here as a diff.

#include <chrono>
#include <functional>
#include <thread>

#include <catch2/catch.hpp>

#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "ml";
constexpr const char* node = "gpu-node-1";
constexpr const char* driver = "gpu.example.com";

// A node as a kubelet would register it: Ready, with room for pods, and without the
// not-ready taint the API server puts on every new node (no node lifecycle controller runs).
void register_node(admin_client& admin) {
  create(admin, "/api/v1/nodes", {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", node}}}});
  json status = {{"capacity", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}},
                 {"allocatable", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}},
                 {"conditions", json::array({{{"type", "Ready"},
                                              {"status", "True"},
                                              {"reason", "KubeletReady"},
                                              {"message", "kubelet is posting ready status"},
                                              {"lastHeartbeatTime", "2026-11-29T10:00:00Z"},
                                              {"lastTransitionTime", "2026-11-29T10:00:00Z"}}})}};
  json current = get_object(admin, std::string("/api/v1/nodes/") + node);
  current["status"] = status;
  REQUIRE(admin.put(std::string("/api/v1/nodes/") + node + "/status", current).ok());
  current = get_object(admin, std::string("/api/v1/nodes/") + node);
  current["spec"].erase("taints");
  REQUIRE(admin.put(std::string("/api/v1/nodes/") + node, current).ok());
}

// The example driver's class and one slice with two GPUs on the node.
void publish_gpus(admin_client& admin) {
  create(admin, "/apis/resource.k8s.io/v1/deviceclasses",
         {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceClass"},
          {"metadata", {{"name", driver}}},
          {"spec", {{"selectors", json::array({{{"cel", {{"expression", "device.driver == 'gpu.example.com'"}}}}})}}}});
  json devices = json::array();
  for (const char* name : {"gpu-0", "gpu-1"}) {
    devices.push_back({{"name", name}, {"attributes", {{"model", {{"string", "LATEST-GPU-MODEL"}}}}}});
  }
  create(admin, "/apis/resource.k8s.io/v1/resourceslices",
         {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", std::string(node) + "-gpus"}}},
          {"spec",
           {{"driver", driver},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", devices}}}});
}

json claim(const std::string& name, int count) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"devices",
             {{"requests",
               json::array({{{"name", "gpu"}, {"exactly", {{"deviceClassName", driver}, {"count", count}}}}})}}}}}};
}

json pod_with_claim(const std::string& name, const std::string& claim_name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"containers", json::array({{{"name", "main"},
                                         {"image", "registry.k8s.io/pause:3.10"},
                                         {"resources", {{"claims", json::array({{{"name", "gpu"}}})}}}}})},
            {"resourceClaims", json::array({{{"name", "gpu"}, {"resourceClaimName", claim_name}}})}}}};
}

std::string condition_message(const json& object, const std::string& type) {
  for (const json& c : object.value("status", json::object()).value("conditions", json::array())) {
    if (c.value("type", "") == type) {
      return c.value("message", "");
    }
  }
  return "";
}

}  // namespace

TEST_CASE("the real scheduler allocates a claim and explains a pod whose claim cannot be allocated",
          "[integration][controllers][dra]") {
  test_cluster cluster({.controllers = {"kube-scheduler", "kube-controller-manager"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  register_node(admin);
  publish_gpus(admin);
  const std::string claims = std::string("/apis/resource.k8s.io/v1/namespaces/") + ns + "/resourceclaims";
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  create(admin, claims, claim("one-gpu", 1));
  create(admin, pods, pod_with_claim("trainer", "one-gpu"));
  create(admin, claims, claim("eight-gpus", 8));
  create(admin, pods, pod_with_claim("too-big", "eight-gpus"));

  // What the scheduler wrote, read back from the API server.
  json allocated = wait_for([&] { return get_object(admin, claims + "/one-gpu"); },
                            [](const json& c) { return c.contains("status") && c["status"].contains("reservedFor"); });
  REQUIRE(allocated["status"].contains("allocation"));
  const json& result = allocated["status"]["allocation"]["devices"]["results"][0];
  CHECK(result.value("driver", "") == driver);
  CHECK(result.value("pool", "") == node);
  const std::string device = result.value("device", "");
  CHECK((device == "gpu-0" || device == "gpu-1"));
  json bound = wait_for([&] { return get_object(admin, pods + "/trainer"); },
                        [](const json& p) { return !p["spec"].value("nodeName", "").empty(); });
  CHECK(bound["spec"].value("nodeName", "") == node);
  json waiting = wait_for([&] { return get_object(admin, pods + "/too-big"); },
                          [](const json& p) { return !condition_message(p, "PodScheduled").empty(); });
  const std::string scheduler_said = condition_message(waiting, "PodScheduled");
  CHECK(scheduler_said ==
        "0/1 nodes are available: 1 cannot allocate all claims. preemption: 0/1 nodes are available: 1 Preemption is "
        "not helpful for scheduling.");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));

  // The claim: in use by the pod the scheduler reserved it for, on the device it chose.
  json claim_view =
      wait_for([&] { return live.get(std::string("/api/v1/dra/resourceclaims/") + ns + "/one-gpu"); },
               [](const json& v) { return v.value("state", json::object()).value("label", "") == "In use"; });
  CHECK(claim_view["state"]["label"] == "In use");
  CHECK(claim_view["allocation"]["node"] == node);
  CHECK(claim_view["allocation"]["devices"][0]["device"] == device);
  CHECK(claim_view["consumers"][0]["name"] == "trainer");

  // The pod that waits: the scheduler's own message, and DRA's reading of its fragment.
  json pod_view = wait_for([&] { return live.get(std::string("/api/v1/core/pods/") + ns + "/too-big"); },
                           [](const json& v) { return v.value("waiting", json()).is_object(); });
  REQUIRE(pod_view["waiting"].is_object());
  CHECK(pod_view["waiting"]["message"] == scheduler_said);
  bool cannot_allocate = false;
  for (const json& reason : pod_view["waiting"].value("reasons", json::array())) {
    if (reason.value("id", "") == "cannot-allocate") {
      cannot_allocate = true;
      CHECK(reason["fragment"] == "1 cannot allocate all claims");
      CHECK(reason["source"] == "scheduler");
    }
  }
  CHECK(cannot_allocate);
  CHECK(pod_view["claims"][0]["claimName"] == "eight-gpus");
  CHECK(pod_view["claims"][0]["state"] == "Pending");
}

TEST_CASE("the real Job controller's conditions are what sextantd shows for a Job", "[integration][controllers]") {
  test_cluster cluster({.controllers = {"kube-controller-manager"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  const std::string jobs = std::string("/apis/batch/v1/namespaces/") + ns + "/jobs";
  json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", "held"}, {"namespace", ns}}},
              {"spec",
               {{"suspend", true},
                {"template",
                 {{"spec",
                   {{"restartPolicy", "Never"},
                    {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}}}}}}}};
  create(admin, jobs, job);
  // A Job with no retry whose one pod fails (written as a kubelet would write it).
  json fails = job;
  fails["metadata"]["name"] = "fails";
  fails["spec"].erase("suspend");
  fails["spec"]["backoffLimit"] = 0;
  create(admin, jobs, fails);
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  json pod_list = wait_for([&] { return get_object(admin, pods + "?labelSelector=job-name%3Dfails"); },
                           [](const json& l) { return !l.value("items", json::array()).empty(); });
  REQUIRE(!pod_list.value("items", json::array()).empty());
  json pod = pod_list["items"][0];
  pod["status"]["phase"] = "Failed";
  pod["status"]["containerStatuses"] =
      json::array({{{"name", "main"},
                    {"image", "registry.k8s.io/pause:3.10"},
                    {"imageID", ""},
                    {"ready", false},
                    {"restartCount", 0},
                    {"state", {{"terminated", {{"exitCode", 1}, {"reason", "Error"}}}}}}});
  const std::string pod_path = pods + "/" + pod["metadata"]["name"].get<std::string>();
  REQUIRE(admin.put(pod_path + "/status", pod).ok());

  json suspended = wait_for([&] { return get_object(admin, jobs + "/held"); },
                            [](const json& j) { return !condition_message(j, "Suspended").empty(); });
  CHECK(condition_message(suspended, "Suspended") == "Job suspended");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  json view =
      wait_for([&] { return live.get(std::string("/api/v1/core/jobs/") + ns + "/held"); },
               [](const json& v) { return v.value("state", json::object()).value("label", "") == "Suspended"; });
  CHECK(view["state"]["label"] == "Suspended");
  CHECK(view["state"]["reason"] == "JobSuspended");
  CHECK(view["state"]["message"] == "Job suspended");

  json failed = wait_for([&] { return live.get(std::string("/api/v1/core/jobs/") + ns + "/fails"); },
                         [](const json& v) { return v.value("state", json::object()).value("label", "") == "Failed"; });
  CHECK(failed["state"]["label"] == "Failed");
  CHECK(failed["state"]["reason"] == "BackoffLimitExceeded");
  CHECK(failed["state"]["message"] == "Job has reached the specified backoff limit");
}
