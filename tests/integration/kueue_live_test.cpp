// Kueue's own controller (v0.19.2, tests/controllers/kueue) writes the Workloads' and queues'
// statuses; sextantd must carry its state, reason and message as written. The test writes
// only what an administrator or a user would (a flavor, queues, Jobs labelled with a queue) and
// what a kubelet would (pod phases); Kueue's webhooks are registered as in a real install, so
// its job webhook suspends the Jobs on the way in. The expected words are Kueue's own at the
// pinned version: a version bump that changes them shows up here as a diff.

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

constexpr const char* ns = "team-a";
const std::string v1beta2 = "kueue.x-k8s.io/v1beta2";
const std::string kueue_api = "/apis/kueue.x-k8s.io/v1beta2";

json cluster_queue(const std::string& name, const std::string& flavor, const std::string& cpu, bool held) {
  json spec = {
      {"namespaceSelector", json::object()},
      {"resourceGroups",
       json::array(
           {{{"coveredResources", json::array({"cpu"})},
             {"flavors", json::array({{{"name", flavor},
                                       {"resources", json::array({{{"name", "cpu"}, {"nominalQuota", cpu}}})}}})}}})}};
  if (held) {
    spec["stopPolicy"] = "Hold";
  }
  return {{"apiVersion", v1beta2}, {"kind", "ClusterQueue"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

json local_queue(const std::string& name, const std::string& cluster_queue_name) {
  return {{"apiVersion", v1beta2},
          {"kind", "LocalQueue"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec", {{"clusterQueue", cluster_queue_name}}}};
}

// A Job as a user submits it to Kueue: labelled with its queue, not suspended.
json queued_job(const std::string& name, const std::string& queue, const std::string& cpu) {
  json container = {
      {"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}, {"resources", {{"requests", {{"cpu", cpu}}}}}};
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", {{"name", name}, {"namespace", ns}, {"labels", {{"kueue.x-k8s.io/queue-name", queue}}}}},
          {"spec",
           {{"backoffLimit", 0},
            {"template", {{"spec", {{"restartPolicy", "Never"}, {"containers", json::array({container})}}}}}}}};
}

// Submits a queued Job; Kueue's job webhook must have suspended it before it was stored, so
// that the Job controller makes no pod until Kueue admits it.
void submit(admin_client& admin, const std::string& jobs, const json& job) {
  json stored = create(admin, jobs, job);
  INFO(stored.dump());
  CHECK(stored["spec"].value("suspend", false));
}

// The Workload Kueue made for a Job (it names it after the Job and labels it with the Job's uid).
json workload_of(admin_client& admin, const std::string& job_name) {
  json job = get_object(admin, std::string("/apis/batch/v1/namespaces/") + ns + "/jobs/" + job_name);
  if (!job.is_object()) {
    return json();
  }
  const std::string uid = job["metadata"].value("uid", "");
  json list =
      get_object(admin, kueue_api + "/namespaces/" + ns + "/workloads?labelSelector=kueue.x-k8s.io%2Fjob-uid%3D" + uid);
  const json items = list.is_object() ? list.value("items", json::array()) : json::array();
  return items.empty() ? json() : items[0];
}

bool has_condition(const json& object, const std::string& type, const std::string& status) {
  return condition_of(object, type).value("status", "") == status;
}

}  // namespace

TEST_CASE("Kueue's own statuses are what sextantd shows: admitted, finished, pending on quota, stopped, missing",
          "[integration][controllers][kueue]") {
  test_cluster cluster({.controllers = {"kube-controller-manager", "kueue"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, kueue_api + "/resourceflavors",
         {{"apiVersion", v1beta2}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default-flavor"}}}});
  create(admin, kueue_api + "/clusterqueues", cluster_queue("cluster-queue", "default-flavor", "2", false));
  create(admin, kueue_api + "/clusterqueues", cluster_queue("held-queue", "default-flavor", "2", true));
  create(admin, kueue_api + "/clusterqueues", cluster_queue("flavorless-queue", "missing-flavor", "2", false));
  const std::string local_queues = kueue_api + "/namespaces/" + ns + "/localqueues";
  create(admin, local_queues, local_queue("user-queue", "cluster-queue"));
  create(admin, local_queues, local_queue("held", "held-queue"));
  create(admin, local_queues, local_queue("flavorless", "flavorless-queue"));

  // Kueue's queue conditions, as it wrote them.
  json active = wait_for([&] { return get_object(admin, kueue_api + "/clusterqueues/cluster-queue"); },
                         [](const json& q) { return has_condition(q, "Active", "True"); });
  CHECK(condition_of(active, "Active").value("message", "") == "Can admit new workloads");
  json stopped = wait_for([&] { return get_object(admin, kueue_api + "/clusterqueues/held-queue"); },
                          [](const json& q) { return has_condition(q, "Active", "False"); });
  CHECK(condition_of(stopped, "Active").value("reason", "") == "Stopped");
  const std::string stopped_message = condition_of(stopped, "Active").value("message", "");
  CHECK(stopped_message == "Can't admit new workloads: is stopped.");
  json flavorless = wait_for([&] { return get_object(admin, kueue_api + "/clusterqueues/flavorless-queue"); },
                             [](const json& q) { return has_condition(q, "Active", "False"); });
  CHECK(condition_of(flavorless, "Active").value("reason", "") == "FlavorNotFound");
  const std::string flavorless_message = condition_of(flavorless, "Active").value("message", "");
  CHECK(flavorless_message == "Can't admit new workloads: references missing ResourceFlavor(s): missing-flavor.");

  const std::string jobs = std::string("/apis/batch/v1/namespaces/") + ns + "/jobs";
  submit(admin, jobs, queued_job("fits", "user-queue", "1"));
  submit(admin, jobs, queued_job("too-big", "user-queue", "3"));
  submit(admin, jobs, queued_job("on-hold", "held", "1"));
  submit(admin, jobs, queued_job("lost", "nowhere", "1"));

  // Admitted, then finished once its pod succeeds (written as a kubelet would).
  json admitted = wait_for([&] { return workload_of(admin, "fits"); },
                           [](const json& w) { return has_condition(w, "Admitted", "True"); });
  CHECK(condition_of(admitted, "Admitted").value("message", "") == "The workload is admitted");
  CHECK(condition_of(admitted, "QuotaReserved").value("message", "") == "Quota reserved in ClusterQueue cluster-queue");
  const std::string fits_workload = admitted["metadata"].value("name", "");
  json pending = wait_for([&] { return workload_of(admin, "too-big"); },
                          [](const json& w) { return has_condition(w, "QuotaReserved", "False"); });
  const json pending_condition = condition_of(pending, "QuotaReserved");
  CHECK(pending_condition.value("reason", "") == "Pending");
  CHECK(pending_condition.value("message", "") ==
        "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor, previously "
        "considered podsets requests (0) + current podset request (3) > maximum capacity (2)");
  json held = wait_for([&] { return workload_of(admin, "on-hold"); },
                       [](const json& w) { return has_condition(w, "QuotaReserved", "False"); });
  const json held_condition = condition_of(held, "QuotaReserved");
  CHECK(held_condition.value("reason", "") == "Inadmissible");
  CHECK(held_condition.value("message", "") == "ClusterQueue held-queue is inactive");
  json lost = wait_for([&] { return workload_of(admin, "lost"); },
                       [](const json& w) { return has_condition(w, "QuotaReserved", "False"); });
  const json lost_condition = condition_of(lost, "QuotaReserved");
  CHECK(lost_condition.value("reason", "") == "Inadmissible");
  CHECK(lost_condition.value("message", "") == "LocalQueue nowhere doesn't exist");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  auto view_of = [&](const std::string& path, const std::string& label) {
    return wait_for([&] { return live.get(path); },
                    [&](const json& v) { return v.value("state", json::object()).value("label", "") == label; },
                    std::chrono::seconds(30));
  };
  const std::string workloads = std::string("/api/v1/kueue/workloads/") + ns + "/";

  json fits_view = view_of(workloads + fits_workload, "Admitted");
  CHECK(fits_view["state"]["label"] == "Admitted");
  CHECK(fits_view["state"]["message"] == "The workload is admitted");

  json pending_view = view_of(workloads + pending["metadata"].value("name", ""), "Pending");
  CHECK(pending_view["state"]["label"] == "Pending");
  CHECK(pending_view["state"]["reason"] == pending_condition.value("reason", ""));
  CHECK(pending_view["state"]["message"] == pending_condition.value("message", ""));

  // Kueue writes Inadmissible for a stopped queue as for a misconfigured one; a stop is no fault
  // of the Workload, so it is told through the queue (issue 10), with Kueue's words pinned here.
  CHECK(held_condition.value("message", "") == "ClusterQueue held-queue is inactive");
  json held_view = view_of(workloads + held["metadata"].value("name", ""), "Pending");
  CHECK(held_view["state"]["message"] == "Waits because its Cluster Queue held-queue is stopped (stopPolicy Hold).");
  json lost_view = view_of(workloads + lost["metadata"].value("name", ""), "Pending");
  CHECK(lost_view["state"]["message"] == "Waits because its Local Queue nowhere does not exist.");

  json stopped_view = view_of("/api/v1/kueue/clusterqueues/held-queue", "Stopped");
  CHECK(stopped_view["state"]["label"] == "Stopped");
  CHECK(stopped_view["state"]["message"] == stopped_message);
  json flavorless_view = view_of("/api/v1/kueue/clusterqueues/flavorless-queue", "Inactive");
  CHECK(flavorless_view["state"]["reason"] == "FlavorNotFound");
  CHECK(flavorless_view["state"]["message"] == flavorless_message);

  // The Queue section of a Job: its Workload, its queues, and why it waits, told through the
  // stopped queue.
  json queue = live.get(std::string("/api/v1/kueue/queue/jobs/") + ns + "/on-hold");
  CHECK(queue["workload"]["name"] == held["metadata"].value("name", ""));
  CHECK(queue["localQueue"]["name"] == "held");
  CHECK(queue["clusterQueue"]["name"] == "held-queue");
  CHECK(queue["waiting"]["blockedBy"]["state"]["label"] == "Stopped");

  // Finished: the Job controller ran the admitted Job's pod; it succeeds as a kubelet says.
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  json pod_list = wait_for([&] { return get_object(admin, pods + "?labelSelector=job-name%3Dfits"); },
                           [](const json& l) { return l.is_object() && !l.value("items", json::array()).empty(); });
  REQUIRE(!pod_list.value("items", json::array()).empty());
  json pod = pod_list["items"][0];
  pod["status"]["phase"] = "Succeeded";
  pod["status"]["containerStatuses"] =
      json::array({{{"name", "main"},
                    {"image", "registry.k8s.io/pause:3.10"},
                    {"imageID", ""},
                    {"ready", false},
                    {"restartCount", 0},
                    {"state", {{"terminated", {{"exitCode", 0}, {"reason", "Completed"}}}}}}});
  REQUIRE(admin.put(pods + "/" + pod["metadata"]["name"].get<std::string>() + "/status", pod).ok());
  json finished = wait_for([&] { return workload_of(admin, "fits"); },
                           [](const json& w) { return has_condition(w, "Finished", "True"); });
  const json finished_condition = condition_of(finished, "Finished");
  CHECK(finished_condition.value("reason", "") == "Succeeded");
  CHECK(finished_condition.value("message", "") == "Reached expected number of succeeded pods");
  json finished_view = view_of(workloads + fits_workload, "Finished");
  CHECK(finished_view["state"]["reason"] == finished_condition.value("reason", ""));
  CHECK(finished_view["state"]["message"] == finished_condition.value("message", ""));
}
