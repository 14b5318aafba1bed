// Kueue's own controller (v0.19.2, tests/controllers/kueue) writes the Workloads' and queues'
// statuses; sextantd must carry its state, reason and message as written. The test writes
// only what an administrator or a user would (a flavor, queues, Jobs labelled with a queue) and
// what a kubelet would (pod phases); Kueue's webhooks are registered as in a real install, so
// its job webhook suspends the Jobs on the way in. The expected words are Kueue's own at the
// pinned version: a version bump that changes them shows up here as a diff.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
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

constexpr const char* ns = "team-a";
const std::string v1beta2 = "kueue.x-k8s.io/v1beta2";
const std::string kueue_api = "/apis/kueue.x-k8s.io/v1beta2";

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

bool has_reason(const json& object, const std::string& type, const std::string& reason) {
  return condition_of(object, type).value("reason", "") == reason;
}

// Changes an object's spec as an administrator's `kubectl edit` would: read, change, write back,
// again when a controller wrote in between (409).
json edit_spec(admin_client& admin, const std::string& path, const std::function<void(json&)>& change) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    json object = get_object(admin, path);
    REQUIRE(object.is_object());
    change(object["spec"]);
    answer written = admin.put(path, object);
    if (written.ok()) {
      return written.body();
    }
    INFO(written.status << " " << written.text);
    REQUIRE(written.status == 409);
  }
  FAIL("the object kept changing under the edit: " << path);
  return json();
}

std::string transition_time_of(const json& object, const std::string& type) {
  return condition_of(object, type).value("lastTransitionTime", "");
}

}  // namespace

TEST_CASE("Kueue's own statuses are what sextantd shows: admitted, finished, pending on quota, stopped, missing",
          "[integration][controllers][kueue]") {
  test_cluster cluster({.controllers = {"kube-controller-manager", "kueue"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, kueue_api + "/resourceflavors",
         {{"apiVersion", v1beta2}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default-flavor"}}}});
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue("cluster-queue", "default-flavor", "2", false));
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue("held-queue", "default-flavor", "2", true));
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue("flavorless-queue", "missing-flavor", "2", false));
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
  // A missing queue is no stop: the Workload is Inadmissible, as Kueue's reason says.
  json lost_view = view_of(workloads + lost["metadata"].value("name", ""), "Inadmissible");
  CHECK(lost_view["state"]["label"] == "Inadmissible");
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
  end_job_pod(admin, ns, "fits", true);
  json finished = wait_for([&] { return workload_of(admin, "fits"); },
                           [](const json& w) { return has_condition(w, "Finished", "True"); });
  const json finished_condition = condition_of(finished, "Finished");
  CHECK(finished_condition.value("reason", "") == "Succeeded");
  CHECK(finished_condition.value("message", "") == "Reached expected number of succeeded pods");
  json finished_view = view_of(workloads + fits_workload, "Finished");
  CHECK(finished_view["state"]["reason"] == finished_condition.value("reason", ""));
  CHECK(finished_view["state"]["message"] == finished_condition.value("message", ""));
}

TEST_CASE(
    "Kueue's words for a stop over a misconfiguration, a Cohort cycle and a queue broken under a waiting Workload",
    "[integration][controllers][kueue]") {
  // What Kueue v0.19.2 writes, pinned: a stop and a missing flavor in one message, the stop's
  // reason first, whichever came first (pkg/cache/scheduler/clusterqueue.go:311-363); the
  // transition time kept while only the reason changes (clusterqueue_controller.go:538,
  // pkg/workload/workload.go:794-803); Active=False with reason Ready for a Cluster Queue made
  // under a Cohort cycle. Then what sextantd makes of it, live and from a snapshot with a later
  // clock.
  test_cluster cluster({.controllers = {"kube-controller-manager", "kueue"}});
  admin_client admin = cluster.admin();
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, kueue_api + "/resourceflavors",
         {{"apiVersion", v1beta2}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default-flavor"}}}});
  const std::string cluster_queues = kueue_api + "/clusterqueues";
  const std::string local_queues = kueue_api + "/namespaces/" + ns + "/localqueues";
  const std::string jobs = std::string("/apis/batch/v1/namespaces/") + ns + "/jobs";
  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  auto view_of = [&](const std::string& path, const std::function<bool(const json&)>& done) {
    return wait_for([&] { return live.get(path); }, done, std::chrono::seconds(30));
  };
  auto labelled = [](const std::string& label) {
    return [label](const json& v) { return v.value("state", json::object()).value("label", "") == label; };
  };

  // Stopped first, then found misconfigured: made with both.
  create(admin, cluster_queues, kueue_cluster_queue("stopped-first", "missing-flavor", "2", true));
  json stopped_first = wait_for([&] { return get_object(admin, cluster_queues + "/stopped-first"); },
                                [](const json& q) { return has_reason(q, "Active", "Stopped"); });
  const std::string both =
      "Can't admit new workloads: is stopped, references missing ResourceFlavor(s): missing-flavor.";
  CHECK(condition_of(stopped_first, "Active").value("message", "") == both);
  // Misconfigured first, then stopped: the same words, and the time it became inactive kept.
  create(admin, cluster_queues, kueue_cluster_queue("misconfigured-first", "missing-flavor", "2", false));
  json misconfigured = wait_for([&] { return get_object(admin, cluster_queues + "/misconfigured-first"); },
                                [](const json& q) { return has_reason(q, "Active", "FlavorNotFound"); });
  const std::string misconfigured_since = transition_time_of(misconfigured, "Active");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  edit_spec(admin, cluster_queues + "/misconfigured-first", [](json& spec) { spec["stopPolicy"] = "Hold"; });
  json then_stopped = wait_for([&] { return get_object(admin, cluster_queues + "/misconfigured-first"); },
                               [](const json& q) { return has_reason(q, "Active", "Stopped"); });
  CHECK(condition_of(then_stopped, "Active").value("message", "") == both);
  CHECK(transition_time_of(then_stopped, "Active") == misconfigured_since);

  // sextantd: inactive for another reason than the stop (a kueue-queues problem once 2 minutes
  // have passed), saying the queue stays inactive once the stop is lifted.
  json stopped_view = view_of("/api/v1/kueue/clusterqueues/stopped-first", labelled("Inactive"));
  CHECK(stopped_view["state"]["label"] == "Inactive");
  CHECK(stopped_view["state"]["reason"] == "Stopped");
  CHECK(stopped_view["state"]["message"] ==
        both + " It stays inactive when the stop is lifted: besides the stop, Kueue finds it misconfigured.");

  // Lifted: Kueue changes the reason and keeps the time the stop began.
  const std::string stopped_since = transition_time_of(stopped_first, "Active");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  for (const char* name : {"stopped-first", "misconfigured-first"}) {
    edit_spec(admin, cluster_queues + "/" + name, [](json& spec) { spec["stopPolicy"] = "None"; });
  }
  json lifted = wait_for([&] { return get_object(admin, cluster_queues + "/stopped-first"); },
                         [](const json& q) { return has_reason(q, "Active", "FlavorNotFound"); });
  CHECK(condition_of(lifted, "Active").value("message", "") ==
        "Can't admit new workloads: references missing ResourceFlavor(s): missing-flavor.");
  CHECK(transition_time_of(lifted, "Active") == stopped_since);
  CHECK(lifted["metadata"].value("generation", 0) > 1);
  json lifted_view = view_of("/api/v1/kueue/clusterqueues/stopped-first", labelled("Inactive"));
  CHECK(lifted_view["state"]["reason"] == "FlavorNotFound");

  // A Cluster Queue made under a Cohort cycle: Kueue never evaluates it and writes Active=False
  // with an active queue's reason and message (pkg/cache/scheduler/clusterqueue.go:161-165, 365;
  // cache.go:389-400); its Workload is "inactive" in the workload controller's words
  // (workload_controller.go:2090-2091).
  for (auto [name, parent] : {std::pair{"loop-a", "loop-b"}, std::pair{"loop-b", "loop-a"}}) {
    create(admin, kueue_api + "/cohorts",
           {{"apiVersion", v1beta2},
            {"kind", "Cohort"},
            {"metadata", {{"name", name}}},
            {"spec", {{"parentName", parent}}}});
  }
  json cycled_queue = kueue_cluster_queue("cycled", "default-flavor", "2", false);
  cycled_queue["spec"]["cohortName"] = "loop-a";
  create(admin, cluster_queues, cycled_queue);
  create(admin, local_queues, local_queue("to-cycle", "cycled"));
  // A queue that breaks under a Workload already waiting for quota.
  create(admin, cluster_queues, kueue_cluster_queue("breaks-later", "default-flavor", "1", false));
  create(admin, local_queues, local_queue("to-break", "breaks-later"));
  submit(admin, jobs, queued_job("in-cycle", "to-cycle", "1"));
  submit(admin, jobs, queued_job("waits", "to-break", "3"));

  json cycled = wait_for([&] { return get_object(admin, cluster_queues + "/cycled"); },
                         [](const json& q) { return !condition_of(q, "Active").empty(); });
  const json cycled_active = condition_of(cycled, "Active");
  CHECK(cycled_active.value("status", "") == "False");
  CHECK(cycled_active.value("reason", "") == "Ready");
  CHECK(cycled_active.value("message", "") == "Can admit new workloads");
  json in_cycle = wait_for([&] { return workload_of(admin, "in-cycle"); },
                           [](const json& w) { return has_condition(w, "QuotaReserved", "False"); });
  CHECK(condition_of(in_cycle, "QuotaReserved").value("reason", "") == "Inadmissible");
  CHECK(condition_of(in_cycle, "QuotaReserved").value("message", "") == "ClusterQueue cycled is inactive");
  json cycled_view = view_of("/api/v1/kueue/clusterqueues/cycled", labelled("Inactive"));
  CHECK_THAT(cycled_view["state"]["message"].get<std::string>(), Catch::Contains("loop-a → loop-b → loop-a"));
  json cycle_view = view_of(std::string("/api/v1/kueue/workloads/") + ns + "/" + in_cycle["metadata"].value("name", ""),
                            labelled("Inadmissible"));
  CHECK(cycle_view["state"]["label"] == "Inadmissible");
  CHECK_THAT(cycle_view["state"]["message"].get<std::string>(),
             Catch::StartsWith("Waits because its Cluster Queue cycled is inactive: Kueue admits no Workload from it"));

  json waits = wait_for([&] { return workload_of(admin, "waits"); },
                        [](const json& w) { return has_reason(w, "QuotaReserved", "Pending"); });
  const std::string waiting_since = transition_time_of(waits, "QuotaReserved");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  edit_spec(admin, cluster_queues + "/breaks-later", [](json& spec) {
    spec["admissionChecksStrategy"] = {{"admissionChecks", json::array({{{"name", "missing-check"}}})}};
  });
  json broken = wait_for([&] { return get_object(admin, cluster_queues + "/breaks-later"); },
                         [](const json& q) { return has_reason(q, "Active", "AdmissionCheckNotFound"); });
  const std::string broken_since = transition_time_of(broken, "Active");
  json held = wait_for([&] { return workload_of(admin, "waits"); },
                       [](const json& w) { return has_reason(w, "QuotaReserved", "Inadmissible"); });
  CHECK(condition_of(held, "QuotaReserved").value("message", "") == "ClusterQueue breaks-later is inactive");
  // The Workload keeps the time it began waiting; the queue's own condition says when it broke.
  CHECK(transition_time_of(held, "QuotaReserved") == waiting_since);
  CHECK(broken_since > waiting_since);

  // A daemon that reads these objects ten minutes later cannot tell when the lifted queues' fault
  // began (their time is the stop's), nor when "breaks-later" broke (edited since it was made,
  // its time may be a lifted stop's too), nor so when the Workload under it began to be held: it
  // counts all three from its own first sight, so none is a problem yet. The Workload's own time
  // is when it began waiting for quota, long before.
  const fs::path snapshot =
      dump_lists(admin, cluster.dir() / "snapshot",
                 {"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", kueue_api + "/clusterqueues",
                  kueue_api + "/localqueues", kueue_api + "/workloads", kueue_api + "/resourceflavors",
                  kueue_api + "/admissionchecks", kueue_api + "/cohorts", kueue_api + "/workloadpriorityclasses",
                  "/apis/batch/v1/jobs"});
  write_text(cluster.dir() / "settings.json", R"({"categories": {"kueue-workloads": {"enabled": true}}})");
  const std::string later = format_rfc3339(*parse_rfc3339(broken_since) + std::chrono::minutes(10));
  sextantd_process files(
      {"--snapshot", snapshot.string(), "--now", later, "--settings-file", (cluster.dir() / "settings.json").string()},
      cluster.dir() / "snapshot.log");
  REQUIRE(files.wait_ready(std::chrono::seconds(30)));
  std::vector<std::string> named;
  for (const char* category : {"kueue-queues", "kueue-workloads"}) {
    json problems =
        wait_for([&] { return files.get(std::string("/api/v1/problems?category=") + category); },
                 [](const json& page) { return page.value("incomplete", true) == false; }, std::chrono::seconds(30));
    INFO(problems.dump());
    REQUIRE(problems.value("incomplete", true) == false);
    for (const json& p : problems["problems"]) {
      named.push_back(p.value("name", ""));
    }
  }
  for (const std::string& name : {std::string("stopped-first"), std::string("misconfigured-first"),
                                  std::string("breaks-later"), held["metadata"].value("name", "")}) {
    INFO(name);
    CHECK(std::find(named.begin(), named.end(), name) == named.end());
  }
  // The Cohort cycle's Workload: held by a queue Kueue cannot use, whatever reason it wrote.
  json cycle_snapshot =
      files.get(std::string("/api/v1/kueue/workloads/") + ns + "/" + in_cycle["metadata"].value("name", ""));
  CHECK(cycle_snapshot["state"]["label"] == "Inadmissible");
}
