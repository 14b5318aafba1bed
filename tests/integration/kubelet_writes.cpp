#include "kubelet_writes.hpp"

#include <algorithm>
#include <chrono>

#include <catch2/catch.hpp>

#include "live_objects.hpp"

namespace sextant::integration {
namespace {

std::string pods_of(const std::string& namespace_) {
  return "/api/v1/namespaces/" + namespace_ + "/pods";
}

json container_status(const container_state& c, const std::string& image, const std::string& now) {
  json state;
  switch (c.state) {
    case container_state::is::running:
      state = {{"running", {{"startedAt", now}}}};
      break;
    case container_state::is::waiting:
      state = {{"waiting", {{"reason", c.reason}, {"message", c.message}}}};
      break;
    case container_state::is::terminated:
      state = {{"terminated",
                {{"exitCode", c.exit_code},
                 {"reason", c.reason},
                 {"message", c.message},
                 {"startedAt", now},
                 {"finishedAt", now}}}};
      break;
  }
  json status = {{"name", c.name},
                 {"image", image},
                 {"imageID", ""},
                 {"ready", c.ready},
                 {"started", c.state == container_state::is::running},
                 {"restartCount", c.restarts},
                 {"state", state}};
  if (!c.last_terminated.is_null()) {
    json last = c.last_terminated;
    last["startedAt"] = now;
    last["finishedAt"] = now;
    status["lastState"] = {{"terminated", last}};
  }
  return status;
}

std::string image_of(const json& containers, const std::string& name) {
  for (const json& c : containers) {
    if (c.value("name", "") == name) {
      return c.value("image", "");
    }
  }
  FAIL("the pod has no container " << name);
  return "";
}

json pod_condition(const char* type, bool status, const std::string& now, const char* reason = "") {
  json c = {{"type", type}, {"status", status ? "True" : "False"}, {"lastTransitionTime", now}};
  if (!status && *reason != '\0') {
    c["reason"] = reason;
  }
  return c;
}

}  // namespace

void bind_pod(admin_client& admin, const std::string& namespace_, const std::string& pod, const std::string& node) {
  json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", pod}, {"namespace", namespace_}}},
                  {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  answer bound = admin.post(pods_of(namespace_) + "/" + pod + "/binding", binding);
  INFO("binding " << namespace_ << "/" << pod << " to " << node << ": " << bound.text << bound.error);
  REQUIRE(bound.ok());
}

json ready_node(const std::string& name, const json& labels) {
  return json{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", name}, {"labels", labels}}}};
}

void create_ready_node(admin_client& admin, const std::string& name, const json& labels) {
  json node = create(admin, "/api/v1/nodes", ready_node(name, labels));
  // The API server taints a new node not-ready until its kubelet reports; this one has.
  node["spec"]["taints"] = json::array();
  answer untainted = admin.put("/api/v1/nodes/" + name, node);
  INFO(untainted.text << untainted.error);
  REQUIRE(untainted.ok());
  const std::string now = ago(std::chrono::minutes(0));
  json capacity = {{"cpu", "64"}, {"memory", "512Gi"}, {"pods", "110"}};
  write_status(admin, "/api/v1/nodes", untainted.body(),
               {{"capacity", capacity},
                {"allocatable", capacity},
                {"conditions", json::array({{{"type", "Ready"},
                                             {"status", "True"},
                                             {"reason", "KubeletReady"},
                                             {"message", "kubelet is posting ready status"},
                                             {"lastHeartbeatTime", now},
                                             {"lastTransitionTime", now}}})},
                {"nodeInfo",
                 {{"containerRuntimeVersion", "containerd://2.1.4"},
                  {"kernelVersion", "6.8.0-86-generic"},
                  {"osImage", "Ubuntu 24.04.3 LTS"},
                  {"operatingSystem", "linux"},
                  {"architecture", "amd64"},
                  {"kubeletVersion", "v1.37.2"},
                  {"kubeProxyVersion", ""},
                  {"machineID", ""},
                  {"systemUUID", ""},
                  {"bootID", ""}}}});
}

container_state running(const std::string& name, bool ready) {
  container_state c;
  c.name = name;
  c.ready = ready;
  return c;
}

namespace {

container_state not_running(const std::string& name, container_state::is state, std::string reason) {
  container_state c;
  c.name = name;
  c.state = state;
  c.reason = std::move(reason);
  return c;
}

}  // namespace

container_state completed(const std::string& name) {
  return not_running(name, container_state::is::terminated, "Completed");
}

container_state initializing(const std::string& name) {
  return not_running(name, container_state::is::waiting, "PodInitializing");
}

container_state failed(const std::string& name, int exit_code, const std::string& message) {
  container_state c = not_running(name, container_state::is::terminated, "Error");
  c.message = message;
  c.exit_code = exit_code;
  return c;
}

container_state crash_looping(const std::string& name, int exit_code, const std::string& message, int restarts) {
  container_state c = not_running(name, container_state::is::waiting, "CrashLoopBackOff");
  c.message = "back-off 40s restarting failed container=" + name;
  c.restarts = restarts;
  c.last_terminated = {{"exitCode", exit_code}, {"reason", "Error"}, {"message", message}};
  return c;
}

json write_pod_status(admin_client& admin, const std::string& namespace_, const std::string& pod,
                      const std::vector<container_state>& init_containers,
                      const std::vector<container_state>& containers) {
  json current = get_object(admin, pods_of(namespace_) + "/" + pod);
  REQUIRE(current.is_object());
  const std::string now = ago(std::chrono::minutes(0));
  const json& spec = current["spec"];
  json init_statuses = json::array();
  bool initialized = true;
  for (const container_state& c : init_containers) {
    init_statuses.push_back(container_status(c, image_of(spec.value("initContainers", json::array()), c.name), now));
    initialized = initialized && c.state == container_state::is::terminated && c.reason == "Completed";
  }
  json statuses = json::array();
  bool all_ready = initialized && !containers.empty();
  for (const container_state& c : containers) {
    statuses.push_back(container_status(c, image_of(spec["containers"], c.name), now));
    all_ready = all_ready && c.ready;
  }
  json conditions = json::array({pod_condition("PodScheduled", true, now),
                                 pod_condition("Initialized", initialized, now, "ContainersNotInitialized"),
                                 pod_condition("ContainersReady", all_ready, now, "ContainersNotReady"),
                                 pod_condition("Ready", all_ready, now, "ContainersNotReady")});
  json status = {{"phase", initialized ? "Running" : "Pending"},
                 {"hostIP", "10.0.0.1"},
                 {"podIP", "10.1.0." + std::to_string(1 + pod.size() % 250)},
                 {"startTime", now},
                 {"conditions", conditions},
                 {"containerStatuses", statuses}};
  if (!init_statuses.empty()) {
    status["initContainerStatuses"] = init_statuses;
  }
  return write_status(admin, pods_of(namespace_), current, status);
}

json run_ready(admin_client& admin, const std::string& namespace_, const std::string& pod) {
  json current = get_object(admin, pods_of(namespace_) + "/" + pod);
  REQUIRE(current.is_object());
  std::vector<container_state> init;
  for (const json& c : current["spec"].value("initContainers", json::array())) {
    init.push_back(completed(c.value("name", "")));
  }
  std::vector<container_state> main;
  for (const json& c : current["spec"]["containers"]) {
    main.push_back(running(c.value("name", ""), true));
  }
  return write_pod_status(admin, namespace_, pod, init, main);
}

void delete_pod_now(admin_client& admin, const std::string& namespace_, const std::string& pod) {
  answer deleted = admin.remove(pods_of(namespace_) + "/" + pod + "?gracePeriodSeconds=0");
  INFO(deleted.text << deleted.error);
  REQUIRE((deleted.ok() || deleted.status == 404));
}

std::vector<std::string> pod_names(admin_client& admin, const std::string& namespace_, const std::string& selector) {
  json list = get_object(admin, pods_of(namespace_) + "?labelSelector=" + selector);
  std::vector<std::string> names;
  for (const json& pod : list.is_object() ? list.value("items", json::array()) : json::array()) {
    if (!pod["metadata"].contains("deletionTimestamp")) {
      names.push_back(pod["metadata"].value("name", ""));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sextant::integration
