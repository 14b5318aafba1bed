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
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  json pod_list = wait_for([&] { return get_object(admin, pods + "?labelSelector=job-name%3Djs-workers-0"); },
                           [](const json& l) { return l.is_object() && !l.value("items", json::array()).empty(); });
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
  REQUIRE(admin.put(pods + "/" + pod["metadata"]["name"].get<std::string>() + "/status", pod).ok());

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
