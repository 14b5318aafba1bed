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

TEST_CASE("the real scheduler's SchedulerError, a missing class and admin access, as sextantd shows them",
          "[integration][controllers][dra]") {
  test_cluster cluster({.controllers = {"kube-scheduler"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  // Admin access is allowed only in a namespace so labelled (k8s.io/api resource/v1 types.go,
  // DRAAdminNamespaceLabelKey).
  create(admin, "/api/v1/namespaces",
         {{"apiVersion", "v1"},
          {"kind", "Namespace"},
          {"metadata", {{"name", "ops"}, {"labels", {{"resource.kubernetes.io/admin-access", "true"}}}}}});
  register_node(admin);
  publish_gpus(admin);
  // A class whose selector fails when run: the allocator's error makes the scheduler write
  // SchedulerError, not Unschedulable.
  create(admin, "/apis/resource.k8s.io/v1/deviceclasses",
         {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceClass"},
          {"metadata", {{"name", "broken.example.com"}}},
          {"spec",
           {{"selectors",
             json::array({{{"cel", {{"expression", "device.attributes['gpu.example.com'].missing == 'x'"}}}}})}}}});
  const std::string claims = std::string("/apis/resource.k8s.io/v1/namespaces/") + ns + "/resourceclaims";
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  json broken = claim("broken", 1);
  broken["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = "broken.example.com";
  create(admin, claims, broken);
  create(admin, pods, pod_with_claim("broken-pod", "broken"));
  json typo = claim("typo", 1);
  typo["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = "gpu.typo.com";
  create(admin, claims, typo);
  create(admin, pods, pod_with_claim("typo-pod", "typo"));
  json monitor = claim("monitor", 1);
  monitor["metadata"]["namespace"] = "ops";
  monitor["spec"]["devices"]["requests"][0]["exactly"]["adminAccess"] = true;
  create(admin, "/apis/resource.k8s.io/v1/namespaces/ops/resourceclaims", monitor);
  json monitor_pod = pod_with_claim("monitor", "monitor");
  monitor_pod["metadata"]["namespace"] = "ops";
  create(admin, "/api/v1/namespaces/ops/pods", monitor_pod);

  auto scheduler_condition = [&](const std::string& pod) {
    return wait_for([&] { return get_object(admin, pods + "/" + pod); },
                    [](const json& p) { return !condition_message(p, "PodScheduled").empty(); });
  };
  json broken_seen = scheduler_condition("broken-pod");
  const std::string broken_said = condition_message(broken_seen, "PodScheduled");
  INFO(broken_said);
  CHECK_THAT(broken_said, Catch::Contains("class broken.example.com: selector #0 on device") &&
                              Catch::Contains("CEL runtime error"));
  json typo_seen = scheduler_condition("typo-pod");
  const std::string typo_said = condition_message(typo_seen, "PodScheduled");
  CHECK_THAT(typo_said, Catch::StartsWith("0/1 nodes are available: request gpu: device class gpu.typo.com does not "
                                          "exist."));
  json allocated =
      wait_for([&] { return get_object(admin, "/apis/resource.k8s.io/v1/namespaces/ops/resourceclaims/monitor"); },
               [](const json& c) { return c.contains("status") && c["status"].contains("allocation"); });
  REQUIRE(allocated["status"].contains("allocation"));
  CHECK(allocated["status"]["allocation"]["devices"]["results"][0].value("adminAccess", false) == true);

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));

  // SchedulerError: the pod still shows the scheduler's words, and DRA reads its class.
  json broken_view = wait_for([&] { return live.get(std::string("/api/v1/core/pods/") + ns + "/broken-pod"); },
                              [](const json& v) { return v.value("waiting", json()).is_object(); });
  REQUIRE(broken_view["waiting"].is_object());
  CHECK(broken_view["waiting"]["message"] == broken_said);
  CHECK(broken_view["state"]["reason"] == "SchedulerError");
  bool cel_named = false;
  for (const json& reason : broken_view["waiting"].value("reasons", json::array())) {
    cel_named =
        cel_named || (reason.value("id", "") == "cel-runtime-error" && reason["deviceClass"] == "broken.example.com");
  }
  CHECK(cel_named);

  // The missing class: one reason, not the claim's fact and the scheduler's words twice.
  json typo_view = wait_for([&] { return live.get(std::string("/api/v1/core/pods/") + ns + "/typo-pod"); },
                            [](const json& v) { return v.value("waiting", json()).is_object(); });
  std::size_t class_reasons = 0;
  for (const json& reason : typo_view["waiting"].value("reasons", json::array())) {
    class_reasons += reason.value("id", "") == "device-class-missing" ? 1 : 0;
  }
  CHECK(class_reasons == 1);

  // Admin access holds no device: the Devices page says who watches, and that it is free.
  json devices = wait_for([&] { return live.get("/api/v1/dra/devices"); },
                          [](const json& v) {
                            for (const json& row : v.value("items", json::array())) {
                              if (!row.value("adminAccessBy", json::array()).empty()) {
                                return true;
                              }
                            }
                            return false;
                          });
  bool watched = false;
  for (const json& row : devices.value("items", json::array())) {
    const json& by = row.value("adminAccessBy", json::array());
    if (!by.empty()) {
      watched = true;
      CHECK(by[0]["name"] == "monitor");
    }
    CHECK((!row["allocatedTo"].is_object() || row["allocatedTo"]["name"] != "monitor"));
  }
  CHECK(watched);
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
