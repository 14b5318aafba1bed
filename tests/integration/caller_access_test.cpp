// Callers against a real API server: sextantd --auth=kubernetes checks each bearer token with a
// TokenReview and each permission with a SubjectAccessReview, decided by the server's own RBAC.
// The test cluster's token file has the users: `sextant-reader` (granted here Kueue in team-a
// and the cluster's queues, nothing of team-b) and `nobody` (granted nothing). The daemon runs
// as the client certificate's user (`cert-admin`), the test as the admin token's, so the API
// server's audit log tells the daemon's requests apart: it may read and ask reviews, nothing else.
#include <stdlib.h>

#include <fstream>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const std::string kueue_api = "/apis/kueue.x-k8s.io/v1beta2";

json pod_template() {
  return {{"spec",
           {{"restartPolicy", "Never"},
            {"containers",
             json::array({{{"name", "main"}, {"image", "busybox"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}})}}}};
}

json workload(const std::string& ns, const std::string& name) {
  return {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
          {"kind", "Workload"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"queueName", "user-queue"},
            {"podSets", json::array({{{"name", "main"}, {"count", 1}, {"template", pod_template()}}})}}}};
}

// Grants `user` the rules: a Role and RoleBinding in `ns`, or a ClusterRole and its binding when
// `ns` is empty.
void grant(admin_client& admin, const std::string& name, const std::string& ns, const json& rules,
           const std::string& user) {
  const std::string api = "/apis/rbac.authorization.k8s.io/v1";
  const std::string where = ns.empty() ? api + "/" : api + "/namespaces/" + ns + "/";
  const std::string role_kind = ns.empty() ? "ClusterRole" : "Role";
  json metadata = {{"name", name}};
  if (!ns.empty()) {
    metadata["namespace"] = ns;
  }
  answer role = admin.post(
      where + (ns.empty() ? "clusterroles" : "roles"),
      {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", role_kind}, {"metadata", metadata}, {"rules", rules}});
  REQUIRE(role.ok());
  answer bound = admin.post(
      where + (ns.empty() ? "clusterrolebindings" : "rolebindings"),
      {{"apiVersion", "rbac.authorization.k8s.io/v1"},
       {"kind", role_kind + "Binding"},
       {"metadata", metadata},
       {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", name}}},
       {"subjects", json::array({{{"kind", "User"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", user}}})}});
  REQUIRE(bound.ok());
}

// A folder for the API server's audit policy and log, made before the cluster starts.
struct audit_files {
  audit_files() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sextant-audit-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    write_text(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
  }
  ~audit_files() {
    if (!current_test_failed()) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
  std::filesystem::path dir;
  std::filesystem::path policy = dir / "policy.yaml";
  std::filesystem::path log = dir / "audit.log";
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

}  // namespace

TEST_CASE("callers see what their own RBAC lets them read, and nothing without a token", "[integration][auth]") {
  audit_files audit;
  test_cluster cluster({{upstream_crds("kueue").string()},
                        true,
                        {"--apiserver-arg=--audit-policy-file=" + audit.policy.string(),
                         "--apiserver-arg=--audit-log-path=" + audit.log.string()}});
  admin_client admin = cluster.admin();
  const std::string reader = trimmed(read_text(cluster.env("READER_TOKEN_FILE")));
  const std::string nobody = trimmed(read_text(cluster.env("NOBODY_TOKEN_FILE")));
  const std::string root = cluster.admin_token();

  // One Cluster Queue fed by a Local Queue in each team, and a waiting Workload in each.
  REQUIRE(
      create(
          admin, kueue_api + "/resourceflavors",
          {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default"}}}})
          .is_object());
  REQUIRE(
      create(admin, kueue_api + "/clusterqueues",
             {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
              {"kind", "ClusterQueue"},
              {"metadata", {{"name", "shared"}}},
              {"spec",
               {{"namespaceSelector", json::object()},
                {"resourceGroups",
                 json::array(
                     {{{"coveredResources", json::array({"cpu"})},
                       {"flavors",
                        json::array({{{"name", "default"},
                                      {"resources", json::array({{{"name", "cpu"}, {"nominalQuota", "1"}}})}}})}}})}}}})
          .is_object());
  for (const std::string ns : {"team-a", "team-b"}) {
    REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());
    REQUIRE(create(admin, kueue_api + "/namespaces/" + ns + "/localqueues",
                   {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                    {"kind", "LocalQueue"},
                    {"metadata", {{"name", "user-queue"}, {"namespace", ns}}},
                    {"spec", {{"clusterQueue", "shared"}}}})
                .is_object());
    json made = create(admin, kueue_api + "/namespaces/" + ns + "/workloads", workload(ns, "train-" + ns));
    write_status(admin, kueue_api + "/namespaces/" + ns + "/workloads", made,
                 {{"conditions", json::array({condition("QuotaReserved", "False", "Pending",
                                                        "couldn't assign flavors to pod set main: insufficient quota",
                                                        std::chrono::minutes(5))})}});
  }
  // sextant-reader: Kueue's namespaced kinds in team-a, and the cluster's queues.
  grant(admin, "kueue-reader", "team-a",
        json::array({{{"apiGroups", {"kueue.x-k8s.io"}},
                      {"resources", {"workloads", "localqueues"}},
                      {"verbs", {"get", "list", "watch"}}}}),
        "sextant-reader");
  grant(admin, "queue-reader", "",
        json::array({{{"apiGroups", {"kueue.x-k8s.io"}},
                      {"resources", {"clusterqueues", "resourceflavors"}},
                      {"verbs", {"get", "list", "watch"}}}}),
        "sextant-reader");

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_CERT"), "--auth=kubernetes"},
                        cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));  // probes need no token

  {  // no token, or one the API server does not know: 401 with the error envelope
    answer none = http_as("", "GET", live.url(), "/api/v1/kueue/workloads");
    CHECK(none.status == 401);
    CHECK(none.body()["error"]["reason"] == "Unauthorized");
    answer bad = http_as("not-a-token", "GET", live.url(), "/api/v1/kueue/workloads");
    CHECK(bad.status == 401);
    CHECK(bad.body()["error"]["reason"] == "Unauthorized");
    CHECK(http_as("", "GET", live.url(), "/metrics").status == 401);
    CHECK(http_as("", "GET", live.url(), "/healthz").status == 200);
  }

  {  // a reader of team-a sees team-a's Workloads only, and team-b's queue entries as hidden
    // Workloads are watched once a view asks for them: wait until the admin sees both.
    json all = wait_for([&] { return http_as(root, "GET", live.url(), "/api/v1/kueue/workloads").body(); },
                        [](const json& page) { return page.is_object() && page["items"].size() == 2; });
    REQUIRE(all["items"].size() == 2);
    CHECK_FALSE(all.contains("filtered"));

    answer mine = http_as(reader, "GET", live.url(), "/api/v1/kueue/workloads");
    REQUIRE(mine.status == 200);
    json page = mine.body();
    REQUIRE(page["items"].size() == 1);
    CHECK(page["items"][0]["namespace"] == "team-a");
    CHECK(page["filtered"] == true);
    CHECK(mine.text.find("team-b") == std::string::npos);

    CHECK(http_as(reader, "GET", live.url(), "/api/v1/kueue/workloads/team-b/train-team-b").status == 403);
    CHECK(http_as(reader, "GET", live.url(), "/api/v1/kueue/workloads/team-a/train-team-a").status == 200);

    json queue =
        wait_for([&] { return http_as(reader, "GET", live.url(), "/api/v1/kueue/clusterqueues/shared").body(); },
                 [](const json& details) { return details.is_object() && details["waiting"]["items"].size() == 2; });
    REQUIRE(queue["waiting"]["items"].size() == 2);
    int hidden = 0;
    for (const json& entry : queue["waiting"]["items"]) {
      if (entry.contains("hidden")) {
        ++hidden;
        CHECK(entry == json({{"hidden", "you may not read workloads in team-b"}}));
      } else {
        CHECK(entry["namespace"] == "team-a");
      }
    }
    CHECK(hidden == 1);
    CHECK(queue.dump().find("train-team-b") == std::string::npos);

    // Granted nothing: an empty list that says it is filtered, and no queue.
    answer none = http_as(nobody, "GET", live.url(), "/api/v1/kueue/workloads");
    REQUIRE(none.status == 200);
    CHECK(none.body()["items"].empty());
    CHECK(none.body()["filtered"] == true);
    CHECK(http_as(nobody, "GET", live.url(), "/api/v1/kueue/clusterqueues/shared").status == 403);
  }

  {  // a computed page is made of kinds the caller must be let list: the reader may not list
     // ResourceSlices, so sees no device; the admin does (issue 32: it read every device before)
    CHECK(http_as(root, "GET", live.url(), "/api/v1/dra/devices").status == 200);
    answer devices = http_as(reader, "GET", live.url(), "/api/v1/dra/devices");
    CHECK(devices.status == 403);
    CHECK(devices.text.find("list resourceslices") != std::string::npos);
    CHECK(http_as(nobody, "GET", live.url(), "/api/v1/gpu-operator/gpunodes").status != 200);
  }

  {  // settings need put on /sextant/settings/problems; problems and metrics leak nothing
    const std::string change = R"({"categories": {"kueue-workloads": {"enabled": true}}})";
    answer refused = http_as(reader, "PUT", live.url(), "/api/v1/settings/problems", change);
    CHECK(refused.status == 403);
    CHECK(refused.body()["error"]["reason"] == "Forbidden");
    CHECK(http_as(root, "PUT", live.url(), "/api/v1/settings/problems", change).status == 200);

    answer problems = http_as(reader, "GET", live.url(), "/api/v1/problems");
    REQUIRE(problems.status == 200);
    CHECK(problems.text.find("team-b") == std::string::npos);
    CHECK(http_as(reader, "GET", live.url(), "/metrics").status == 403);  // no get on /sextant/metrics

    // The daemon's own non-resource URL (--metrics-permission-path's default), as
    // deploy/caller-roles.yaml's sextant-metrics-reader grants it.
    grant(admin, "metrics-reader", "", json::array({{{"nonResourceURLs", {"/sextant/metrics"}}, {"verbs", {"get"}}}}),
          "sextant-reader");
    // The denial is cached for --access-cache-seconds (10): wait it out.
    json metrics = wait_for(
        [&] {
          answer got = http_as(reader, "GET", live.url(), "/metrics");
          return json({{"status", got.status}, {"text", got.text}});
        },
        [](const json& got) { return got["status"] == 200; }, std::chrono::seconds(30));
    REQUIRE(metrics["status"] == 200);
    CHECK(metrics["text"].get<std::string>().find("team-b") == std::string::npos);
    answer full = http_as(root, "GET", live.url(), "/metrics");
    CHECK(full.status == 200);
  }

  // Read-only: every request of the daemon's identity, at every stage the log records, was a
  // get, list or watch, or the create of a review.
  int daemon_requests = 0;
  std::set<std::string> created;
  std::ifstream lines(audit.log);
  for (std::string line; std::getline(lines, line);) {
    json event = json::parse(line, nullptr, false);
    if (!event.is_object() || string_or(event, {"user", "username"}) != "cert-admin") {
      continue;
    }
    ++daemon_requests;
    const std::string verb = string_or(event, {"verb"});
    const std::string resource = string_or(event, {"objectRef", "resource"});
    INFO(string_or(event, {"requestURI"}));
    if (verb == "create") {
      CHECK((resource == "tokenreviews" || resource == "subjectaccessreviews"));
      created.insert(resource);
    } else {
      CHECK((verb == "get" || verb == "list" || verb == "watch"));
    }
  }
  CHECK(daemon_requests > 0);
  CHECK(created == std::set<std::string>{"subjectaccessreviews", "tokenreviews"});
}
