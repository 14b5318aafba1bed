// JobSet's own controller (v0.12.0, tests/controllers/jobset) with the real Job controller: a
// JobSet whose only Job fails, with no restart left, fails in JobSet's own words, and sextantd
// shows the failed Job as the Job controller wrote it, linked to its JobSet; its JobSet section
// reads the controller's words and the Job controller's reason from what they really wrote.
// JobSet's webhooks are registered as in a real install: the test submits a JobSet as a user
// writes it, and its defaulting webhook fills in the rest on the way in.

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

}  // namespace

TEST_CASE(
    "a JobSet out of restarts fails in JobSet's words, and its failed Job is shown as the Job controller wrote it",
    "[integration][controllers][jobset]") {
  test_cluster cluster({.controllers = {"kube-controller-manager", "jobset"}});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}})
              .ok());
  json pod_spec = {{"restartPolicy", "Never"},
                   {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}};
  json job_template = {{"spec", {{"backoffLimit", 0}, {"template", {{"spec", pod_spec}}}}}};
  json jobset = {
      {"apiVersion", "jobset.x-k8s.io/v1alpha2"},
      {"kind", "JobSet"},
      {"metadata", {{"name", "js"}, {"namespace", ns}}},
      {"spec",
       {{"failurePolicy", {{"maxRestarts", 0}}},
        {"replicatedJobs", json::array({{{"name", "workers"}, {"replicas", 1}, {"template", job_template}}})}}}};
  const std::string jobsets = std::string("/apis/jobset.x-k8s.io/v1alpha2/namespaces/") + ns + "/jobsets";
  answer created = admin.post(jobsets, jobset);
  INFO(created.text << created.error);
  REQUIRE(created.ok());
  // JobSet's defaulting webhook ran: what it adds is in the stored object (without `network`
  // the controller would panic).
  const json stored = created.body()["spec"];
  CHECK(stored["network"] == json({{"enableDNSHostnames", true}, {"publishNotReadyAddresses", true}}));
  CHECK(stored["successPolicy"] == json({{"operator", "All"}}));
  CHECK(stored["startupPolicy"] == json({{"startupPolicyOrder", "AnyOrder"}}));
  CHECK(stored["replicatedJobs"][0]["template"]["spec"]["completionMode"] == "Indexed");

  // JobSet made its Job, the Job controller its pod; the pod fails as a kubelet would say.
  end_job_pod(admin, ns, "js-workers-0", false);

  json failed = wait_for([&] { return get_object(admin, jobsets + "/js"); },
                         [](const json& j) { return condition_of(j, "Failed").value("status", "") == "True"; });
  const json failed_condition = condition_of(failed, "Failed");
  CHECK(failed_condition.value("reason", "") == "ReachedMaxRestarts");
  CHECK(failed_condition.value("message", "") ==
        "jobset failed due to reaching max number of restarts (first failed job: js-workers-0)");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  json job = wait_for([&] { return live.get(std::string("/api/v1/core/jobs/") + ns + "/js-workers-0"); },
                      [](const json& v) { return v.value("state", json::object()).value("label", "") == "Failed"; },
                      std::chrono::seconds(30));
  CHECK(job["state"]["label"] == "Failed");
  CHECK(job["state"]["reason"] == "BackoffLimitExceeded");
  CHECK(job["state"]["message"] == "Job has reached the specified backoff limit");
  bool linked = false;
  for (const json& link : job.value("links", json::array())) {
    linked = linked || (link.value("rel", "") == "owner" && link.value("name", "") == "js");
  }
  CHECK(linked);

  // The JobSet section over what the two controllers wrote, not over hand-written statuses.
  json view =
      wait_for([&] { return live.get(std::string("/api/v1/jobset/jobsets/") + ns + "/js"); },
               [](const json& v) {
                 return v.value("state", json::object()).value("label", "") == "Failed" &&
                        v.value("failedJob", json::object()).value("reason", json()) == json("BackoffLimitExceeded");
               },
               std::chrono::seconds(30));
  INFO(view.dump());
  CHECK(view["state"]["label"] == "Failed");
  CHECK(view["state"]["reason"] == "ReachedMaxRestarts");
  CHECK(view["failedJob"]["name"] == "js-workers-0");
  CHECK(view["failedJob"]["exists"] == true);
  CHECK(view["failedJob"]["reason"] == "BackoffLimitExceeded");
  CHECK(view["jobs"]["total"] == 1);
  // A failed JobSet is a problem at once, in the controller's words.
  json problems = wait_for([&] { return live.get("/api/v1/problems?category=jobset"); },
                           [](const json& page) { return !page.value("problems", json::array()).empty(); },
                           std::chrono::seconds(30));
  INFO(problems.dump());
  REQUIRE(problems.value("problems", json::array()).size() == 1);
  CHECK(problems["problems"][0]["name"] == "js");
  CHECK(problems["problems"][0].dump().find("reaching max number of restarts") != std::string::npos);
}

TEST_CASE("a Job restarted alone counts toward maxRestarts, and a JobSet that never ran has used nothing up",
          "[integration][controllers][jobset]") {
  // JobSet v0.12.0 with its RestartJob gate on: RestartJob recreates the failed Job alone and
  // bumps replicatedJobsStatus[].jobRestarts and jobRestartsCountTowardsMax
  // (pkg/controllers/failure_policy.go:300-369), which every restart action counts toward
  // maxRestarts (:226, 350, 548-550).
  test_cluster cluster({.controllers = {"kube-controller-manager", "jobset"}});
  admin_client admin = cluster.admin();
  for (const char* name : {"team-a", "no-pods"}) {
    create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
  }
  json pod_spec = {{"restartPolicy", "Never"},
                   {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}};
  auto jobset = [](const std::string& name, const std::string& namespace_, const json& failure_policy,
                   const json& pods) {
    json job_template = {{"spec", {{"backoffLimit", 0}, {"template", {{"spec", pods}}}}}};
    return json{
        {"apiVersion", "jobset.x-k8s.io/v1alpha2"},
        {"kind", "JobSet"},
        {"metadata", {{"name", name}, {"namespace", namespace_}}},
        {"spec",
         {{"failurePolicy", failure_policy},
          {"replicatedJobs", json::array({{{"name", "workers"}, {"replicas", 1}, {"template", job_template}}})}}}};
  };
  // No pod of never-runs can be made (the Priority admission plugin refuses a PriorityClass that
  // does not exist): its Job stays without an active pod, as while its pods cannot be placed.
  json unplaceable = pod_spec;
  unplaceable["priorityClassName"] = "no-such-class";
  auto jobsets_in = [](const std::string& namespace_) {
    return "/apis/jobset.x-k8s.io/v1alpha2/namespaces/" + namespace_ + "/jobsets";
  };
  create(admin, jobsets_in(ns),
         jobset("alone", ns,
                {{"maxRestarts", 2}, {"rules", json::array({{{"name", "restartOne"}, {"action", "RestartJob"}}})}},
                pod_spec));
  create(admin, jobsets_in("no-pods"), jobset("never-runs", "no-pods", {{"maxRestarts", 1}}, unplaceable));

  // Its Job's pod fails as a kubelet would say; JobSet restarts that Job alone.
  end_job_pod(admin, ns, "alone-workers-0", false);
  json restarted = wait_for(
      [&] { return get_object(admin, jobsets_in(ns) + "/alone"); },
      [](const json& j) {
        const json statuses = j.value("status", json::object()).value("replicatedJobsStatus", json::array());
        return !statuses.empty() && statuses[0].value("jobRestartsCountTowardsMax", json::array()) == json({1});
      });
  INFO(restarted.dump());
  const json& status = restarted["status"];
  CHECK(status.value("restarts", 0) == 0);
  CHECK(status.value("restartsCountTowardsMax", 0) == 0);
  CHECK(status["replicatedJobsStatus"][0]["jobRestarts"] == json({1}));
  json never_runs =
      wait_for([&] { return get_object(admin, jobsets_in("no-pods") + "/never-runs"); },
               [](const json& j) {
                 return !j.value("status", json::object()).value("replicatedJobsStatus", json::array()).empty();
               });
  CHECK(never_runs["status"]["replicatedJobsStatus"][0].value("active", -1) == 0);

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  json view = wait_for([&] { return live.get(std::string("/api/v1/jobset/jobsets/") + ns + "/alone"); },
                       [](const json& v) {
                         return v.value("restarts", json::object()).value("countingTowardsMax", -1) == 1 &&
                                v.value("state", json::object()).value("label", "") == "Running";
                       },
                       std::chrono::seconds(30));
  INFO(view.dump());
  CHECK(view["restarts"]["jobRestarts"] == json({{"total", 1}, {"countingTowardsMax", 1}}));
  CHECK(view["restarts"]["left"] == 1);
  json pending = live.get("/api/v1/jobset/jobsets/no-pods/never-runs");
  CHECK(pending["state"]["label"] == "Pending");
  CHECK(pending["restarts"]["left"] == 1);

  // One restart left: a problem for the JobSet that runs, none for the one still Pending.
  json problems = wait_for([&] { return live.get("/api/v1/problems?category=jobset"); },
                           [](const json& page) {
                             return !page.value("incomplete", true) && !page.value("problems", json::array()).empty();
                           },
                           std::chrono::seconds(30));
  INFO(problems.dump());
  REQUIRE(problems["problems"].size() == 1);
  CHECK(problems["problems"][0]["name"] == "alone");
  CHECK(problems["problems"][0]["message"] ==
        "One restart left: the JobSet fails after one more restart (1 of maxRestarts 2 used).");
}
