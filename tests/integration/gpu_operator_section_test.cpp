// The GPU Operator section against a real API server, with no operator: the upstream GPU
// Operator CRDs are installed, and a Cluster Policy, NVIDIA Drivers, the operator's DaemonSets
// and labelled GPU nodes are written with their status through /status, as the operator, the
// DaemonSet controller and the kubelet would. `sextantd --kubeconfig` then serves the views
// `sextantd --snapshot` gives over the same objects dumped from the server; a DaemonSet that
// rolls out while watched and a node whose MIG state changes follow the cluster. DaemonSets are
// watched only in the namespace the Cluster Policy names, and the watch moves when it does.

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

constexpr const char* ns = "gpu-operator";
// Another namespace holding a DaemonSet by a component's name: none of the operator's, until the
// policy names this namespace.
constexpr const char* elsewhere = "elsewhere";
const std::string policies = "/apis/nvidia.com/v1/clusterpolicies";
const std::string drivers = "/apis/nvidia.com/v1alpha1/nvidiadrivers";
const std::string daemonsets = std::string("/apis/apps/v1/namespaces/") + ns + "/daemonsets";
const std::string elsewhere_daemonsets = std::string("/apis/apps/v1/namespaces/") + elsewhere + "/daemonsets";
const std::string nodes = "/api/v1/nodes";

json daemonset(const std::string& name, const json& owner = nullptr, const std::string& in = ns) {
  json metadata = {{"name", name}, {"namespace", in}, {"labels", {{"app", name}}}};
  if (!owner.is_null()) {
    metadata["ownerReferences"] = json::array({owner});
  }
  return json{
      {"apiVersion", "apps/v1"},
      {"kind", "DaemonSet"},
      {"metadata", metadata},
      {"spec",
       {{"selector", {{"matchLabels", {{"app", name}}}}},
        {"template",
         {{"metadata", {{"labels", {{"app", name}}}}},
          {"spec", {{"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}}}}}}}};
}

json rollout(int desired, int updated, int ready, std::int64_t generation) {
  return json{{"desiredNumberScheduled", desired}, {"currentNumberScheduled", desired},
              {"updatedNumberScheduled", updated}, {"numberReady", ready},
              {"numberAvailable", ready},          {"numberMisscheduled", 0},
              {"observedGeneration", generation}};
}

json gpu_node(const std::string& name, const std::string& state) {
  return json{{"apiVersion", "v1"},
              {"kind", "Node"},
              {"metadata",
               {{"name", name},
                {"labels",
                 {{"nvidia.com/gpu.present", "true"},
                  {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"},
                  {"nvidia.com/gpu.count", "8"},
                  {"nvidia.com/mig.strategy", "mixed"},
                  {"nvidia.com/mig.config", "all-balanced"},
                  {"nvidia.com/mig.config.state", state}}}}}};
}

void write_objects(admin_client& admin) {
  for (const char* name : {ns, elsewhere}) {
    create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
  }
  json stray = create(admin, elsewhere_daemonsets, daemonset("nvidia-container-toolkit-daemonset", nullptr, elsewhere));
  write_status(admin, elsewhere_daemonsets, stray, rollout(3, 3, 3, 1));
  json policy = create(admin, policies,
                       {{"apiVersion", "nvidia.com/v1"},
                        {"kind", "ClusterPolicy"},
                        {"metadata", {{"name", "cluster-policy"}}},
                        {"spec",
                         {{"dcgm", {{"enabled", false}}},
                          {"mig", {{"strategy", "mixed"}}},
                          // Required by the CRD; empty, they leave every switch to the operator's default.
                          {"daemonsets", json::object()},
                          {"dcgmExporter", json::object()},
                          {"devicePlugin", json::object()},
                          {"driver", json::object()},
                          {"gfd", json::object()},
                          {"nodeStatusExporter", json::object()},
                          {"operator", json::object()},
                          {"toolkit", json::object()}}}});
  write_status(admin, policies, policy,
               {{"state", "notReady"},
                {"namespace", ns},
                {"conditions", json::array({condition("Ready", "False", "Error", "", std::chrono::minutes(15)),
                                            condition("Error", "True", "OperandNotReady",
                                                      "ClusterPolicy is not ready; states not ready: "
                                                      "[state-dcgm-exporter]",
                                                      std::chrono::minutes(15))})}});
  json driver =
      create(admin, drivers,
             {{"apiVersion", "nvidia.com/v1alpha1"},
              {"kind", "NVIDIADriver"},
              {"metadata", {{"name", "default"}}},
              {"spec", {{"driverType", "gpu"}, {"nodeSelector", {{"nvidia.com/gpu.deploy.driver", "true"}}}}}});
  write_status(admin, drivers, driver,
               {{"state", "ready"},
                {"namespace", ns},
                {"conditions", json::array({condition("Ready", "True", "Reconciled",
                                                      "All resources have been successfully reconciled",
                                                      std::chrono::minutes(30))})}});
  json owner = {{"apiVersion", "nvidia.com/v1alpha1"}, {"kind", "NVIDIADriver"}, {"name", "default"},
                {"uid", driver["metadata"]["uid"]},    {"controller", true},     {"blockOwnerDeletion", true}};
  json owned = create(admin, daemonsets, daemonset("nvidia-gpu-driver-ubuntu22.04-6b7c8d9f", owner));
  write_status(admin, daemonsets, owned, rollout(2, 2, 2, 1));
  for (const char* name : {"nvidia-driver-daemonset", "nvidia-device-plugin-daemonset", "nvidia-dcgm-exporter"}) {
    json made = create(admin, daemonsets, daemonset(name));
    bool rolling = std::string_view(name) == "nvidia-dcgm-exporter";
    write_status(admin, daemonsets, made, rolling ? rollout(2, 1, 1, 1) : rollout(2, 2, 2, 1));
  }
  for (const char* name : {"gpu-a", "gpu-b"}) {
    json node = create(admin, nodes, gpu_node(name, std::string_view(name) == "gpu-a" ? "success" : "pending"));
    write_status(admin, nodes, node,
                 {{"capacity", {{"nvidia.com/mig-1g.5gb", "14"}}}, {"allocatable", {{"nvidia.com/mig-1g.5gb", "14"}}}});
  }
}

fs::path dump_snapshot(admin_client& admin, const fs::path& dir) {
  return dump_lists(admin, dir,
                    {policies, drivers, "/apis/apps/v1/daemonsets", nodes, "/api/v1/pods",
                     "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"});
}

// What the live daemon caches of DaemonSets, from its metrics.
std::string cached_daemonsets(const sextantd_process& daemon) {
  const std::string text = http_get(daemon.url(), "/metrics").text;
  const std::string key = "sextant_watch_cache_objects{resource=\"daemonsets.apps\"} ";
  const std::size_t at = text.find(key);
  return at == std::string::npos ? "not watched" : text.substr(at + key.size(), text.find('\n', at) - at - key.size());
}

const json* component(const json& view, const std::string& name) {
  for (const json& row : view["components"]) {
    if (row["component"] == name) {
      return &row;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the GPU Operator views --snapshot serves over the same objects",
          "[integration][gpu-operator]") {
  test_cluster cluster({.crds = {upstream_crds("gpu-operator").string()}});
  admin_client admin = cluster.admin();
  write_objects(admin);

  live_and_snapshot daemons(cluster.env("KUBECONFIG_TOKEN"), dump_snapshot(admin, cluster.dir() / "snapshot"),
                            cluster.dir());
  REQUIRE(daemons.ready());
  const sextantd_process& live = daemons.live;
  const sextantd_process& files = daemons.files;

  for (const std::string& page :
       {std::string("/api/v1/gpu-operator/clusterpolicies"),
        std::string("/api/v1/gpu-operator/clusterpolicies/cluster-policy"),
        std::string("/api/v1/gpu-operator/nvidiadrivers/default"), std::string("/api/v1/gpu-operator/gpunodes"),
        std::string("/api/v1/problems?category=gpu-operator")}) {
    INFO("GET " << page);
    CHECK(compare_page(live.url(), page, files.get(page)) == std::vector<std::string>{});
  }

  // A node's GPU block is the same (the rest of a node's details reads DRA kinds not dumped here).
  CHECK(live.get("/api/v1/core/nodes/gpu-a")["gpu"] == files.get("/api/v1/core/nodes/gpu-a")["gpu"]);
  const std::string details = "/api/v1/gpu-operator/clusterpolicies/cluster-policy";
  json policy = live.get(details);
  CHECK(policy["state"]["label"] == "Not ready");
  CHECK(policy["state"]["reason"] == "OperandNotReady");
  REQUIRE(component(policy, "DCGM exporter") != nullptr);
  CHECK((*component(policy, "DCGM exporter"))["status"] == "1 of 2 ready, 1 of 2 updated");
  CHECK((*component(policy, "DCGM"))["expected"] == false);
  CHECK((*component(policy, "device plugin"))["status"] == "rolled out");
  CHECK((*component(policy, "container toolkit"))["status"] == "expected but not found");
  json driver = live.get("/api/v1/gpu-operator/nvidiadrivers/default");
  CHECK(driver["state"]["label"] == "Ready");
  CHECK(driver["daemonSets"]["items"][0]["name"] == "nvidia-gpu-driver-ubuntu22.04-6b7c8d9f");
  json page = live.get("/api/v1/gpu-operator/gpunodes");
  REQUIRE(page["items"].size() == 2);
  CHECK(page["items"][1]["gpu"]["mig"]["configState"] == "pending");

  // The DCGM exporter rolls out while watched.
  json exporter = admin.get(daemonsets + "/nvidia-dcgm-exporter").body();
  write_status(admin, daemonsets, exporter, rollout(2, 2, 2, 1));
  json rolled = wait_for([&] { return live.get(details); },
                         [](const json& v) {
                           const json* row = component(v, "DCGM exporter");
                           return row != nullptr && (*row)["status"] == "rolled out";
                         });
  CHECK((*component(rolled, "DCGM exporter"))["status"] == "rolled out");

  // A node's MIG state changes: the MIG manager failed.
  json node = admin.get(nodes + "/gpu-b").body();
  node["metadata"]["labels"]["nvidia.com/mig.config.state"] = "failed";
  answer updated = admin.put(nodes + "/gpu-b", node);
  REQUIRE(updated.ok());
  json failed = wait_for([&] { return live.get("/api/v1/core/nodes/gpu-b"); },
                         [](const json& v) { return v["gpu"]["mig"].value("configState", "") == "failed"; });
  CHECK(failed["gpu"]["mig"]["configState"] == "failed");

  // Only the operator's namespace is watched: its four DaemonSets, not the one elsewhere.
  CHECK(cached_daemonsets(live) == "4");

  // The policy names another namespace: the watch moves there, and the container toolkit found
  // there is the one the views show.
  json named = admin.get(policies + "/cluster-policy").body();
  named["status"]["namespace"] = elsewhere;
  REQUIRE(admin.put(policies + "/cluster-policy/status", named).ok());
  json moved = wait_for([&] { return live.get(details); },
                        [](const json& v) {
                          const json* row = component(v, "container toolkit");
                          return row != nullptr && (*row)["status"] == "rolled out";
                        });
  CHECK((*component(moved, "container toolkit"))["status"] == "rolled out");
  CHECK((*component(moved, "device plugin"))["status"] == "expected but not found");
  CHECK(cached_daemonsets(live) == "1");
}
