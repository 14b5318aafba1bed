// deploy/ against a real API server: every manifest the kustomization lists passes a server-side
// dry run and is then created, and the daemon, run with a token of deploy's own ServiceAccount,
// syncs every watch without one forbidden and answers a caller (its reviews are granted too):
// the ClusterRole is enough.
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

// The metric names the chart's alert rules and dashboard queries read: each sextant_ word of
// their expressions (a histogram's as its _bucket, _count or _sum series).
std::set<std::string> metric_names_read_by_alerts_and_dashboard() {
  std::vector<std::string> expressions;
  const std::filesystem::path files = std::filesystem::path(SEXTANT_SOURCE_DIR) / "deploy/helm/sextantd/files";
  for (const YAML::Node& group : YAML::LoadFile((files / "alerts.yaml").string())["groups"]) {
    for (const YAML::Node& rule : group["rules"]) {
      expressions.push_back(rule["expr"].as<std::string>());
    }
  }
  std::ifstream dashboard_file(files / "dashboard.json");
  const json dashboard = json::parse(dashboard_file);
  for (const json& panel : dashboard["panels"]) {
    for (const json& target : panel.value("targets", json::array())) {
      expressions.push_back(target["expr"].get<std::string>());
    }
  }
  std::set<std::string> names;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const std::string& expression : expressions) {
    for (std::size_t at = expression.find("sextant_"); at != std::string::npos;
         at = expression.find("sextant_", at + 1)) {
      if (at > 0 && word_char(expression[at - 1])) {
        continue;
      }
      std::size_t end = at;
      while (end < expression.size() && word_char(expression[end])) {
        ++end;
      }
      names.insert(expression.substr(at, end - at));
    }
  }
  return names;
}

// Where an object of a kind deploy/ holds is created.
std::string collection_of(const json& object) {
  const std::string kind = object["kind"];
  const std::string ns = string_or(object, {"metadata", "namespace"});
  const std::string in = "/namespaces/" + ns;
  if (kind == "Namespace") {
    return "/api/v1/namespaces";
  }
  if (kind == "ClusterRole" || kind == "ClusterRoleBinding") {
    return "/apis/rbac.authorization.k8s.io/v1/" +
           std::string(kind == "ClusterRole" ? "clusterroles" : "clusterrolebindings");
  }
  if (kind == "ServiceAccount" || kind == "ConfigMap" || kind == "Service") {
    return "/api/v1" + in + "/" +
           (kind == "ServiceAccount" ? "serviceaccounts"
            : kind == "ConfigMap"    ? "configmaps"
                                     : "services");
  }
  if (kind == "Deployment") {
    return "/apis/apps/v1" + in + "/deployments";
  }
  if (kind == "NetworkPolicy") {
    return "/apis/networking.k8s.io/v1" + in + "/networkpolicies";
  }
  FAIL("deploy/ holds a " << kind << " this test does not know where to create");
  return {};
}

}  // namespace

TEST_CASE("deploy/ applies to a real API server and its ServiceAccount may read every section",
          "[integration][deploy]") {
  test_cluster cluster({{upstream_crds("kueue").string(), upstream_crds("jobset").string(),
                         upstream_crds("kuberay").string(), upstream_crds("gpu-operator").string(),
                         upstream_crds("training-operator").string(), upstream_crds("lws").string()}});
  admin_client admin = cluster.admin();
  const std::filesystem::path deploy = std::filesystem::path(SEXTANT_SOURCE_DIR) / "deploy";
  int applied = 0;
  for (const YAML::Node& file : YAML::LoadFile((deploy / "kustomization.yaml").string())["resources"]) {
    for (const YAML::Node& document : YAML::LoadAllFromFile((deploy / file.as<std::string>()).string())) {
      json object = yaml_to_json(document);
      const std::string collection = collection_of(object);
      INFO(file.as<std::string>() << ": " << object["kind"] << " " << object["metadata"]["name"]);
      answer dry = admin.post(collection + "?dryRun=All&fieldValidation=Strict", object);
      CHECK(dry.status == 201);
      INFO(dry.text);
      REQUIRE(admin.post(collection, object).ok());
      ++applied;
    }
  }
  CHECK(applied >= 10);

  // A token of deploy's ServiceAccount, as the kubelet projects one into the Pod.
  answer requested = admin.post(
      "/api/v1/namespaces/sextant/serviceaccounts/sextantd/token",
      {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}, {"spec", {{"expirationSeconds", 3600}}}});
  REQUIRE(requested.ok());
  const std::string token = requested.body()["status"]["token"];
  const std::filesystem::path kubeconfig = cluster.dir() / "kubeconfig-sextantd.yaml";
  write_text(kubeconfig,
             "apiVersion: v1\nkind: Config\ncurrent-context: sa\nclusters:\n- name: test\n  cluster:\n"
             "    server: " +
                 cluster.server() + "\n    certificate-authority: " + cluster.env("CA_CRT") +
                 "\nusers:\n- name: sextantd\n  user:\n    token: " + token +
                 "\ncontexts:\n- name: sa\n  context: {cluster: test, user: sextantd}\n");

  sextantd_process live({"--kubeconfig", kubeconfig.string(), "--auth=kubernetes"}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(90)));
  answer ready = http_get(live.url(), "/readyz");
  CHECK(ready.status == 200);
  CHECK(ready.text.find("forbidden") == std::string::npos);

  // A caller's request: the daemon's TokenReview and SubjectAccessReviews are granted too, and
  // the kinds read on demand (Workloads) are readable.
  json workloads =
      wait_for([&] { return http_as(cluster.admin_token(), "GET", live.url(), "/api/v1/kueue/workloads").body(); },
               [](const json& page) { return page.is_object() && page.value("incomplete", true) == false; },
               std::chrono::seconds(60));
  CHECK(workloads["incomplete"] == false);
  answer metrics = http_as(cluster.admin_token(), "GET", live.url(), "/metrics");
  REQUIRE(metrics.status == 200);
  std::istringstream lines(metrics.text);
  std::set<std::string> served;  // every metric name /metrics declares (# TYPE)
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("sextant_watch_forbidden{")) {
      INFO(line);
      CHECK(line.ends_with(" 0"));
    }
    if (line.starts_with("# TYPE ")) {
      served.insert(line.substr(7, line.find(' ', 7) - 7));
    }
  }

  // The chart's alerts and Grafana dashboard read only metrics this daemon serves, as deployed.
  std::set<std::string> read = metric_names_read_by_alerts_and_dashboard();
  REQUIRE(read.size() > 15);
  for (const std::string& name : read) {
    INFO(name << " is read by deploy/helm/sextantd/files/alerts.yaml or dashboard.json");
    bool found = served.contains(name);
    for (const char* series : {"_bucket", "_count", "_sum"}) {
      found = found || (name.ends_with(series) && served.contains(name.substr(0, name.size() - std::strlen(series))));
    }
    CHECK(found);
  }
}
