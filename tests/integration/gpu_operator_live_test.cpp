// The NVIDIA GPU Operator's own controller (tests/controllers/gpu-operator, the module
// tests/upstream pins) with a Cluster Policy written as its Helm chart writes one: it labels the
// nodes Node Feature Discovery marked as having an NVIDIA PCI device, creates its operands'
// DaemonSets in its namespace, and writes the policy's state and conditions. The DaemonSet
// controller (kube-controller-manager) makes their pods; the test binds them and writes them
// running and ready, as kube-scheduler and the kubelet would. sextantd's components, rollout,
// state, MIG strategy, GPU nodes and problems are checked against what the operator and the
// DaemonSet controller wrote, and the operator's own words are pinned.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kubelet_writes.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"
#include "util/time.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "gpu-operator";
constexpr const char* gpu_node = "gpu-a";
constexpr const char* cpu_node = "cpu-b";
constexpr const char* kernel = "6.8.0-86-generic";
const std::string policies = "/apis/nvidia.com/v1/clusterpolicies";
const std::string drivers = "/apis/nvidia.com/v1alpha1/nvidiadrivers";
const std::string daemonsets = std::string("/apis/apps/v1/namespaces/") + ns + "/daemonsets";

// What Node Feature Discovery writes on every node of Ubuntu 22.04.
json nfd_labels() {
  return {{"feature.node.kubernetes.io/system-os_release.ID", "ubuntu"},
          {"feature.node.kubernetes.io/system-os_release.VERSION_ID", "22.04"},
          {"feature.node.kubernetes.io/system-os_release.VERSION_ID.major", "22"},
          {"feature.node.kubernetes.io/kernel-version.full", kernel}};
}

// ... and on a node with an NVIDIA PCI device, with what GPU Feature Discovery adds.
json gpu_labels() {
  json labels = nfd_labels();
  labels["feature.node.kubernetes.io/pci-10de.present"] = "true";
  labels["nvidia.com/gpu.product"] = "NVIDIA-A100-SXM4-80GB";
  labels["nvidia.com/gpu.count"] = "8";
  labels["nvidia.com/gpu.memory"] = "81920";
  labels["nvidia.com/mig.capable"] = "true";
  labels["nvidia.com/mig.strategy"] = "single";
  return labels;
}

json image(const std::string& repository, const std::string& name, const std::string& version, bool enabled = true) {
  return {{"enabled", enabled}, {"repository", repository}, {"image", name}, {"version", version}};
}

// A Cluster Policy as the Helm chart of the same commit renders it by default (images included:
// the operator's Deployment would otherwise give them through its environment).
json driver_manager() {
  return {{"repository", "nvcr.io/nvidia/cloud-native"}, {"image", "k8s-driver-manager"}, {"version", "v0.8.1"}};
}

json cluster_policy(const json& driver_changes = json::object()) {
  json driver = image("nvcr.io/nvidia", "driver", "580.82.07");
  driver["useNvidiaDriverCRD"] = false;
  driver["manager"] = driver_manager();
  driver.update(driver_changes);
  json validator = {
      {"repository", "nvcr.io/nvidia/cloud-native"}, {"image", "gpu-operator-validator"}, {"version", "v25.10.0"}};
  return {{"apiVersion", "nvidia.com/v1"},
          {"kind", "ClusterPolicy"},
          {"metadata", {{"name", "cluster-policy"}}},
          {"spec",
           {{"operator", {{"defaultRuntime", "containerd"}}},
            {"daemonsets", json::object()},
            {"mig", {{"strategy", "single"}}},
            {"driver", driver},
            {"toolkit", image("nvcr.io/nvidia/k8s", "container-toolkit", "v1.17.8-ubuntu20.04")},
            {"devicePlugin", image("nvcr.io/nvidia", "k8s-device-plugin", "v0.17.4")},
            {"dcgm", image("nvcr.io/nvidia/cloud-native", "dcgm", "4.3.1-1-ubuntu22.04", false)},
            {"dcgmExporter", image("nvcr.io/nvidia/k8s", "dcgm-exporter", "4.3.1-4.4.0-ubuntu22.04")},
            {"gfd", image("nvcr.io/nvidia", "k8s-device-plugin", "v0.17.4")},
            {"migManager", image("nvcr.io/nvidia/cloud-native", "k8s-mig-manager", "v0.12.3-ubuntu20.04")},
            {"nodeStatusExporter", image("nvcr.io/nvidia/cloud-native", "gpu-operator-validator", "v25.10.0", false)},
            {"validator", validator}}}};
}

std::vector<std::string> daemonset_names(admin_client& admin) {
  json list = get_object(admin, daemonsets);
  std::vector<std::string> names;
  for (const json& ds : list.is_object() ? list.value("items", json::array()) : json::array()) {
    names.push_back(ds["metadata"].value("name", ""));
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Binds every pod of the operator's namespace not bound yet to the node its DaemonSet meant, and
// writes it running and ready; returns how many it found.
std::size_t run_operands(admin_client& admin) {
  json list = get_object(admin, std::string("/api/v1/namespaces/") + ns + "/pods");
  std::size_t n = 0;
  for (const json& pod : list.is_object() ? list.value("items", json::array()) : json::array()) {
    const std::string name = pod["metadata"].value("name", "");
    if (pod["metadata"].contains("deletionTimestamp")) {
      continue;
    }
    ++n;
    if (pod["spec"].value("nodeName", "").empty()) {
      // The DaemonSet controller names the node in a required node affinity.
      const json& terms = pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                             ["nodeSelectorTerms"];
      bind_pod(admin, ns, name, terms[0]["matchFields"][0]["values"][0].get<std::string>());
    }
    if (string_or(pod, {"status", "phase"}) != "Running") {
      run_ready(admin, ns, name);
    }
  }
  return n;
}

json component_row(const json& view, const std::string& component) {
  for (const json& row : view.value("components", json::array())) {
    if (row.value("component", "") == component) {
      return row;
    }
  }
  return json::object();
}

bool has_label(const json& node, const std::string& key, const std::string& value) {
  return node.is_object() && node["metadata"].value("labels", json::object()).value(key, "") == value;
}

json policy_of(admin_client& admin) {
  return get_object(admin, policies + "/cluster-policy");
}

std::string state_of(const json& object) {
  return string_or(object, {"status", "state"});
}

// Replaces the stored object's spec with `spec`, retrying when the operator wrote in between.
void update_spec(admin_client& admin, const std::string& path, const json& spec) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    json current = get_object(admin, path);
    REQUIRE(current.is_object());
    current["spec"] = spec;
    if (admin.put(path, current).ok()) {
      return;
    }
  }
  FAIL("could not update " << path);
}

// Deletes at once the pods the DaemonSet controller or the garbage collector is deleting, as their
// kubelet confirms once the containers stopped.
void confirm_deletions(admin_client& admin) {
  json list = get_object(admin, std::string("/api/v1/namespaces/") + ns + "/pods");
  for (const json& pod : list.is_object() ? list.value("items", json::array()) : json::array()) {
    if (pod["metadata"].contains("deletionTimestamp")) {
      delete_pod_now(admin, ns, pod["metadata"].value("name", ""));
    }
  }
}

// The Cluster Policy as the operator wrote it with state ready while its Ready condition was not
// yet True, found in the apiserver's watch history since `before` (a two-second watch from its
// resourceVersion returns every write since); null when there was no such write.
json policy_between(admin_client& admin, const json& before) {
  const std::string since = before["metadata"].value("resourceVersion", "");
  answer history = admin.get(policies + "?watch=1&timeoutSeconds=2&resourceVersion=" + since);
  INFO("watch since " << since << ": " << history.status << " " << history.text.substr(0, 300));
  REQUIRE(history.ok());
  std::istringstream lines(history.text);
  for (std::string line; std::getline(lines, line);) {
    const json event = json::parse(line, nullptr, false);
    const json object = event.is_object() ? event.value("object", json()) : json();
    if (object.is_object() && state_of(object) == "ready" &&
        condition_of(object, "Ready").value("status", "") != "True") {
      return object;
    }
  }
  return json();
}

json view_when(const sextantd_process& daemon, const std::string& path, const std::function<bool(const json&)>& done) {
  return wait_for([&] { return daemon.get(path); }, done, std::chrono::seconds(30));
}

bool label_is(const json& view, const std::string& label) {
  return view.value("state", json::object()).value("label", "") == label;
}

json problem_messages(const json& answer) {
  json out = json::array();
  for (const json& problem : array_or_empty(answer, {"problems"})) {
    out.push_back(problem.value("kind", "") + "/" + problem.value("name", "") + ": " + problem.value("message", ""));
  }
  return out;
}

const std::string policy_view = "/api/v1/gpu-operator/clusterpolicies/cluster-policy";

}  // namespace

TEST_CASE("the GPU Operator's DaemonSets, pods made ready as a kubelet would, and its words are what sextantd shows",
          "[integration][controllers][gpu-operator]") {
  test_cluster cluster({.controllers = {"kube-controller-manager", "gpu-operator"}});
  admin_client admin = cluster.admin();
  create_ready_node(admin, gpu_node, gpu_labels());
  create_ready_node(admin, cpu_node, nfd_labels());

  // A policy without the driver manager's image: the operator refuses it, in its words.
  json policy = cluster_policy();
  policy["spec"]["driver"].erase("manager");
  create(admin, policies, policy);
  json refused =
      wait_for([&] { return policy_of(admin); },
               [](const json& p) { return condition_of(p, "Error").value("reason", "") == "ReconcileFailed"; });
  INFO(refused.dump());
  CHECK(state_of(refused) == "notReady");
  const json refusal = condition_of(refused, "Error");
  CHECK(refusal.value("message", "") ==
        "Failed to reconcile state-driver: empty image path provided through both ClusterPolicy CR and ENV "
        "DRIVER_MANAGER_IMAGE");
  CHECK(condition_of(refused, "Ready").value("status", "") == "False");
  CHECK(condition_of(refused, "Ready").value("reason", "") == "Error");
  CHECK(condition_of(refused, "Ready").value("message", "-") == "");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  json refused_view = view_when(live, policy_view, [&](const json& v) {
    return v.value("state", json::object()).value("reason", "") == "ReconcileFailed";
  });
  INFO(refused_view.dump().substr(0, 4000));
  CHECK(refused_view["state"] ==
        json{{"label", "Not ready"}, {"reason", "ReconcileFailed"}, {"message", refusal.value("message", "")}});

  // With the image the chart gives, it marks the GPU node for its operands, not the other.
  update_spec(admin, policies + "/cluster-policy", cluster_policy()["spec"]);
  json labelled = wait_for([&] { return get_object(admin, std::string("/api/v1/nodes/") + gpu_node); },
                           [](const json& n) { return has_label(n, "nvidia.com/gpu.deploy.driver", "true"); });
  INFO(labelled["metadata"]["labels"].dump());
  CHECK(has_label(labelled, "nvidia.com/gpu.present", "true"));
  CHECK(has_label(labelled, "nvidia.com/gpu.deploy.device-plugin", "true"));
  CHECK(!has_label(get_object(admin, std::string("/api/v1/nodes/") + cpu_node), "nvidia.com/gpu.present", "true"));

  // Its DaemonSets, by the names it gives them; DCGM and the node status exporter are off.
  const std::vector<std::string> expected = {"gpu-feature-discovery",
                                             "nvidia-container-toolkit-daemonset",
                                             "nvidia-dcgm-exporter",
                                             "nvidia-device-plugin-daemonset",
                                             "nvidia-device-plugin-mps-control-daemon",
                                             "nvidia-driver-daemonset",
                                             "nvidia-mig-manager",
                                             "nvidia-operator-validator"};
  std::vector<std::string> names;
  wait_for(
      [&] {
        names = daemonset_names(admin);
        return json(names);
      },
      [&](const json&) { return names == expected; });
  CHECK(names == expected);

  // Not ready while no operand runs: the operator's words.
  const std::string not_ready_message =
      "ClusterPolicy is not ready, states not ready: [state-driver state-container-toolkit state-operator-validation "
      "state-device-plugin state-dcgm-exporter gpu-feature-discovery state-mig-manager]";
  json waiting =
      wait_for([&] { return policy_of(admin); },
               [&](const json& p) { return condition_of(p, "Error").value("message", "") == not_ready_message; });
  INFO(waiting.dump());
  CHECK(state_of(waiting) == "notReady");
  CHECK(waiting["status"]["namespace"] == ns);
  const json error = condition_of(waiting, "Error");
  CHECK(error.value("status", "") == "True");
  CHECK(error.value("reason", "") == "OperandNotReady");
  CHECK(error.value("message", "") == not_ready_message);

  json view = view_when(live, policy_view, [&](const json& v) {
    return v.value("state", json::object()).value("message", "") == not_ready_message &&
           component_row(v, "driver").value("status", "") == "0 of 1 ready";
  });
  INFO(view.dump().substr(0, 4000));
  CHECK(view["state"] == json{{"label", "Not ready"}, {"reason", "OperandNotReady"}, {"message", not_ready_message}});
  CHECK(view["mig"]["strategy"] == "single");
  for (const char* component : {"driver", "container toolkit", "operator validator", "device plugin", "DCGM exporter",
                                "GPU Feature Discovery", "MIG manager"}) {
    INFO(component);
    json row = component_row(view, component);
    CHECK(row.value("expected", false));
    CHECK(row.value("exists", json()) == json(true));
    CHECK(row.value("status", "") == "0 of 1 ready");
  }
  for (const char* component : {"DCGM", "node status exporter"}) {
    INFO(component);
    json row = component_row(view, component);
    CHECK_FALSE(row.value("expected", true));
    CHECK(row.value("exists", json()) == json(false));
    CHECK(row.value("status", "") == "not expected");
  }

  // Not ready for 10 minutes is a problem: the same objects served 15 minutes on.
  {
    const std::string later = format_rfc3339(std::chrono::system_clock::now() + std::chrono::minutes(15));
    sextantd_process files({"--snapshot",
                            dump_lists(admin, cluster.dir() / "snapshot",
                                       {policies, drivers, "/apis/apps/v1/daemonsets", "/api/v1/nodes",
                                        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"})
                                .string(),
                            "--now", later},
                           cluster.dir() / "snapshot.log");
    REQUIRE(files.wait_ready(std::chrono::seconds(30)));
    json later_problems = files.get("/api/v1/problems?category=gpu-operator");
    INFO(later_problems.dump().substr(0, 3000));
    CHECK(problem_messages(later_problems) ==
          json::array({"ClusterPolicy/cluster-policy: Cluster Policy not ready (OperandNotReady): " +
                       not_ready_message + "."}));
  }

  // The pods the DaemonSet controller made, scheduled and running: every component rolls out,
  // and the operator says ready.
  std::size_t pods = 0;
  json ready = wait_for(
      [&] {
        pods = run_operands(admin);
        return policy_of(admin);
      },
      [](const json& p) { return condition_of(p, "Ready").value("status", "") == "True"; }, std::chrono::seconds(120));
  INFO(ready.dump());
  CHECK(pods == 7);
  CHECK(state_of(ready) == "ready");
  const json ready_condition = condition_of(ready, "Ready");
  CHECK(ready_condition.value("reason", "") == "Reconciled");
  CHECK(ready_condition.value("message", "") ==
        "ClusterPolicy is ready as all resources have been successfully reconciled");
  CHECK(condition_of(ready, "Error").value("status", "") == "False");
  CHECK(condition_of(ready, "Error").value("reason", "") == "Ready");

  // The operator writes status.state and the conditions in two writes (updateCRState, then
  // SetConditionsReady: controllers/clusterpolicy_controller.go:216-230), so every watcher sees
  // the policy ready while its Ready condition still says False with reason Error, no message.
  // The apiserver's watch history since the not-ready policy holds that write.
  const json between = policy_between(admin, waiting);
  INFO("state written before the conditions: " << between.dump());
  REQUIRE(between.is_object());
  CHECK(condition_of(between, "Ready").value("status", "") == "False");
  CHECK(condition_of(between, "Ready").value("reason", "") == "Error");
  CHECK(condition_of(between, "Ready").value("message", "") == "");
  CHECK(condition_of(between, "Error").value("reason", "") == "OperandNotReady");
  {
    // sextantd reading that write says ready, and lends it none of the stale condition's words.
    const std::filesystem::path dir = dump_lists(admin, cluster.dir() / "between",
                                                 {drivers, "/apis/apps/v1/daemonsets", "/api/v1/nodes",
                                                  "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"});
    write_text(
        dir / "policies.json",
        json{{"apiVersion", "nvidia.com/v1"}, {"kind", "ClusterPolicyList"}, {"items", json::array({between})}}.dump());
    sextantd_process files({"--snapshot", dir.string()}, cluster.dir() / "between.log");
    REQUIRE(files.wait_ready(std::chrono::seconds(30)));
    json between_view = files.get(policy_view);
    INFO(between_view.dump().substr(0, 3000));
    CHECK(between_view["state"] == json{{"label", "Ready"}, {"reason", nullptr}, {"message", nullptr}});
  }

  // The operator writes status.state before the conditions: the view waits for both.
  json ready_view = view_when(live, policy_view, [](const json& v) {
    return label_is(v, "Ready") && v["state"].value("reason", json()) == json("Reconciled");
  });
  INFO(ready_view.dump().substr(0, 4000));
  CHECK(ready_view["state"] ==
        json{{"label", "Ready"},
             {"reason", "Reconciled"},
             {"message", "ClusterPolicy is ready as all resources have been successfully reconciled"}});
  for (const char* component : {"driver", "container toolkit", "operator validator", "device plugin", "DCGM exporter",
                                "GPU Feature Discovery", "MIG manager"}) {
    INFO(component);
    CHECK(component_row(ready_view, component).value("status", "") == "rolled out");
  }
  // The MPS control daemon runs only on nodes labelled for MPS: none here.
  CHECK(component_row(ready_view, "MPS control daemon").value("status", "") == "rolled out: no node to run on");

  // The GPU node as GFD labelled it and the operator marked it; the CPU node is no GPU node.
  json nodes = live.get("/api/v1/gpu-operator/gpunodes");
  INFO(nodes.dump().substr(0, 2000));
  REQUIRE(nodes["items"].size() == 1);
  CHECK(nodes["items"][0]["name"] == gpu_node);
  json gpu = live.get(std::string("/api/v1/core/nodes/") + gpu_node)["gpu"];
  INFO(gpu.dump());
  CHECK(gpu["present"] == true);
  CHECK(gpu["presentLabel"] == "true");
  CHECK(gpu["product"] == "NVIDIA-A100-SXM4-80GB");
  CHECK(gpu["count"] == 8);
  CHECK(gpu["memoryMiB"] == 81920);
  CHECK(gpu["mig"]["capable"] == "true");
  CHECK(gpu["mig"]["strategy"] == "single");
  CHECK(live.get(std::string("/api/v1/core/nodes/") + cpu_node)["gpu"].is_null());

  json problems = wait_for([&] { return live.get("/api/v1/problems?category=gpu-operator"); },
                           [](const json& a) { return problem_messages(a).empty(); }, std::chrono::seconds(20));
  CHECK(problem_messages(problems) == json::array());
}

TEST_CASE("the GPU Operator's precompiled driver DaemonSet and NVIDIA Driver objects are what sextantd shows",
          "[integration][controllers][gpu-operator]") {
  test_cluster cluster({.controllers = {"kube-controller-manager", "gpu-operator"}});
  admin_client admin = cluster.admin();
  create_ready_node(admin, gpu_node, gpu_labels());
  // Precompiled drivers: one DaemonSet per kernel version and OS the GPU nodes run.
  create(admin, policies, cluster_policy({{"usePrecompiled", true}, {"version", "580"}}));
  const std::string precompiled = std::string("nvidia-driver-daemonset-") + kernel + "-ubuntu22.04";
  json ready = wait_for(
      [&] {
        run_operands(admin);
        return policy_of(admin);
      },
      [](const json& p) { return state_of(p) == "ready"; }, std::chrono::seconds(120));
  INFO(ready.dump());
  REQUIRE(state_of(ready) == "ready");
  // The operator may call the policy ready before its cache holds the GPU node: no node, so no
  // precompiled DaemonSet to make yet (CI at dac5f27 read the DaemonSets then). It makes one once
  // it sees the node.
  const json listed = wait_for(
      [&] {
        run_operands(admin);
        return json(daemonset_names(admin));
      },
      [&precompiled](const json& names) {
        return std::find(names.begin(), names.end(), json(precompiled)) != names.end();
      },
      std::chrono::seconds(120));
  INFO(listed.dump());
  const std::vector<std::string> names = listed.get<std::vector<std::string>>();
  CHECK(std::count(names.begin(), names.end(), precompiled) == 1);
  CHECK(std::count(names.begin(), names.end(), "nvidia-driver-daemonset") == 0);
  json made = get_object(admin, daemonsets + "/" + precompiled);
  CHECK(made["metadata"]["labels"].value("nvidia.com/precompiled", "") == "true");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  // The operator may call the policy ready on the driver pods before the DaemonSet controller has
  // counted them ready in the DaemonSet's status, and may roll the DaemonSet once more: the test
  // goes on running pods as a kubelet would until the DaemonSet's own status says rolled out.
  json view = wait_for(
      [&] {
        run_operands(admin);
        return live.get(policy_view);
      },
      [](const json& v) {
        return label_is(v, "Ready") && component_row(v, "driver").value("status", "") == "rolled out";
      },
      std::chrono::seconds(60));
  INFO(view.dump().substr(0, 4000));
  json driver = component_row(view, "driver");
  CHECK(driver.value("exists", json()) == json(true));
  REQUIRE(driver["daemonSets"].size() == 1);
  CHECK(driver["daemonSets"][0]["name"] == precompiled);
  CHECK(driver.value("status", "") == "rolled out");

  // NVIDIA Driver objects take the driver over: the policy deletes its own driver DaemonSet
  // (orphaning its pods), and the operator makes one per NVIDIA Driver, named by the driver
  // type, the nodes' OS and a hash, owned by it.
  update_spec(admin, policies + "/cluster-policy", cluster_policy({{"useNvidiaDriverCRD", true}})["spec"]);
  create(admin, drivers,
         {{"apiVersion", "nvidia.com/v1alpha1"},
          {"kind", "NVIDIADriver"},
          {"metadata", {{"name", "default"}}},
          {"spec",
           {{"driverType", "gpu"},
            {"repository", "nvcr.io/nvidia"},
            {"image", "driver"},
            {"version", "580.82.07"},
            {"manager", driver_manager()},
            {"nodeSelector", json::object()}}}});
  std::string owned;
  json owned_by = wait_for(
      [&] {
        json list = get_object(admin, daemonsets + "?labelSelector=app.kubernetes.io%2Fcomponent%3Dnvidia-driver");
        for (const json& ds : list.is_object() ? list.value("items", json::array()) : json::array()) {
          for (const json& owner : ds["metadata"].value("ownerReferences", json::array())) {
            if (owner.value("kind", "") == "NVIDIADriver") {
              owned = ds["metadata"].value("name", "");
              return owner;
            }
          }
        }
        return json();
      },
      [](const json& owner) { return owner.is_object(); });
  INFO(owned_by.dump());
  CHECK(owned_by.value("name", "") == "default");
  CHECK_THAT(owned, Catch::StartsWith("nvidia-gpu-driver-ubuntu22.04-"));
  CHECK(wait_for([&] { return get_object(admin, daemonsets + "/" + precompiled); },
                 [](const json& ds) { return ds.is_null(); })
            .is_null());

  // The operator writes the state first and its conditions in a later status update (CI saw
  // state notReady with no conditions yet).
  json waiting = wait_for(
      [&] { return get_object(admin, drivers + "/default"); },
      [](const json& d) { return state_of(d) == "notReady" && !condition_of(d, "Error").value("reason", "").empty(); });
  INFO(waiting.dump());
  CHECK(condition_of(waiting, "Error").value("reason", "") == "DriverNotReady");
  CHECK(condition_of(waiting, "Error").value("message", "") == "Waiting for driver pod to be ready");

  const std::string driver_view = "/api/v1/gpu-operator/nvidiadrivers/default";
  json waiting_view = view_when(live, driver_view, [](const json& v) {
    return v.value("state", json::object()).value("reason", "") == "DriverNotReady" &&
           !array_or_empty(v, {"daemonSets", "items"}).empty();
  });
  INFO(waiting_view.dump().substr(0, 4000));
  CHECK(waiting_view["state"] ==
        json{{"label", "Not ready"}, {"reason", "DriverNotReady"}, {"message", "Waiting for driver pod to be ready"}});
  CHECK(waiting_view["daemonSets"]["items"][0]["name"] == owned);
  json policy_driver = component_row(view_when(live, policy_view,
                                               [](const json& v) {
                                                 return component_row(v, "driver").value("status", "") ==
                                                        "deployed by 1 NVIDIA Driver object";
                                               }),
                                     "driver");
  INFO(policy_driver.dump());
  CHECK(policy_driver.value("status", "") == "deployed by 1 NVIDIA Driver object");
  CHECK_FALSE(policy_driver.value("expected", true));

  // Its pod running (the policy's orphan stops): the NVIDIA Driver is ready, in its words.
  json driver_ready = wait_for(
      [&] {
        confirm_deletions(admin);
        run_operands(admin);
        return get_object(admin, drivers + "/default");
      },
      [](const json& d) { return state_of(d) == "ready"; }, std::chrono::seconds(120));
  INFO(driver_ready.dump());
  CHECK(condition_of(driver_ready, "Ready").value("reason", "") == "Reconciled");
  CHECK(condition_of(driver_ready, "Ready").value("message", "") == "All resources have been successfully reconciled");
  // As with the policy, the state is written before the conditions: wait for both.
  json ready_view = view_when(live, driver_view, [](const json& v) {
    return label_is(v, "Ready") && v["state"].value("reason", json()) == json("Reconciled");
  });
  INFO(ready_view.dump().substr(0, 4000));
  CHECK(ready_view["state"] == json{{"label", "Ready"},
                                    {"reason", "Reconciled"},
                                    {"message", "All resources have been successfully reconciled"}});
}
