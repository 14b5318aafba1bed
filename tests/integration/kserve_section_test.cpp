// The KServe section against a real API server, with no KServe controller: the upstream KServe
// CRDs (v0.16.0) are installed, runtimes and Inference Services are written with their status
// through /status, as KServe's controller would. `sextantd --kubeconfig` then serves the views
// `sextantd --snapshot` gives over the same objects dumped from the server; the runtime choice
// follows Serving Runtimes added, disabled and deleted while watched; and a reader who may not
// list Cluster Serving Runtimes is told the choice "cannot be told".

#include <set>
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

constexpr const char* ns = "ml";
const std::string v1beta1 = std::string("/apis/serving.kserve.io/v1beta1/namespaces/") + ns + "/";
const std::string v1alpha1 = std::string("/apis/serving.kserve.io/v1alpha1/namespaces/") + ns + "/";
const std::string cluster_runtimes = "/apis/serving.kserve.io/v1alpha1/clusterservingruntimes";
const std::string iris_path = std::string("/api/v1/kserve/inferenceservices/") + ns + "/iris";

json runtime_spec(bool disabled = false) {
  return {{"supportedModelFormats", json::array({{{"name", "sklearn"}, {"version", "1"}, {"autoSelect", true}}})},
          {"protocolVersions", json::array({"v1", "v2"})},
          {"disabled", disabled},
          {"containers", json::array({{{"name", "kserve-container"}, {"image", "kserve/sklearnserver:v0.16.0"}}})}};
}

json serving_runtime(const std::string& name, bool namespaced) {
  json metadata = {{"name", name}};
  if (namespaced) {
    metadata["namespace"] = ns;
  }
  return {{"apiVersion", "serving.kserve.io/v1alpha1"},
          {"kind", namespaced ? "ServingRuntime" : "ClusterServingRuntime"},
          {"metadata", metadata},
          {"spec", runtime_spec()}};
}

json inference_service(const std::string& name, const json& predictor) {
  return {{"apiVersion", "serving.kserve.io/v1beta1"},
          {"kind", "InferenceService"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec", {{"predictor", predictor}}}};
}

void write_objects(admin_client& admin) {
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  create(admin, cluster_runtimes, serving_runtime("kserve-sklearnserver", false));

  json iris =
      create(admin, v1beta1 + "inferenceservices",
             inference_service("iris", {{"canaryTrafficPercent", 10},
                                        {"model",
                                         {{"modelFormat", {{"name", "sklearn"}}},
                                          {"storageUri", "gs://kfserving-examples/models/sklearn/1.0/model"}}}}));
  json traffic = json::array(
      {{{"revisionName", "iris-predictor-00002"}, {"latestRevision", true}, {"percent", 10}},
       {{"revisionName", "iris-predictor-00001"}, {"latestRevision", false}, {"percent", 90}, {"tag", "prev"}}});
  write_status(admin, v1beta1 + "inferenceservices", iris,
               {{"deploymentMode", "Knative"},
                {"clusterServingRuntimeName", "kserve-sklearnserver"},
                {"url", "http://iris.ml.example.com"},
                {"components",
                 {{"predictor",
                   {{"url", "http://iris-predictor.ml.example.com"},
                    {"latestReadyRevision", "iris-predictor-00002"},
                    {"latestCreatedRevision", "iris-predictor-00002"},
                    {"previousRolledoutRevision", "iris-predictor-00001"},
                    {"latestRolledoutRevision", "iris-predictor-00001"},
                    {"traffic", traffic}}}}},
                {"modelStatus",
                 {{"transitionStatus", "UpToDate"},
                  {"states", {{"activeModelState", "Loaded"}, {"targetModelState", "Loaded"}}}}},
                {"conditions", json::array({condition("PredictorReady", "True", "", "", std::chrono::minutes(30)),
                                            condition("IngressReady", "True", "", "", std::chrono::minutes(30)),
                                            condition("Ready", "True", "", "", std::chrono::minutes(30))})}});

  json broken = create(admin, v1beta1 + "inferenceservices",
                       inference_service("broken", {{"model",
                                                     {{"modelFormat", {{"name", "sklearn"}}},
                                                      {"storageUri", "s3://AKIALIVEKEY:livesecret@models/iris"}}}}));
  write_status(admin, v1beta1 + "inferenceservices", broken,
               {{"deploymentMode", "Standard"},
                {"modelStatus",
                 {{"transitionStatus", "BlockedByFailedLoad"},
                  {"states", {{"targetModelState", "FailedToLoad"}}},
                  {"lastFailureInfo",
                   {{"reason", "ModelLoadFailed"},
                    {"location", "storage-initializer"},
                    {"message", "failed to download s3://AKIALIVEKEY:livesecret@models/iris: AccessDenied"},
                    {"exitCode", 1},
                    {"time", ago(std::chrono::minutes(5))}}}}},
                {"conditions",
                 json::array({condition("PredictorReady", "False", "MinimumReplicasUnavailable",
                                        "Deployment does not have minimum availability.", std::chrono::minutes(5)),
                              condition("Ready", "False", "MinimumReplicasUnavailable",
                                        "Deployment does not have minimum availability.", std::chrono::minutes(5))})}});

  json graph = create(
      admin, v1alpha1 + "inferencegraphs",
      {{"apiVersion", "serving.kserve.io/v1alpha1"},
       {"kind", "InferenceGraph"},
       {"metadata", {{"name", "pipeline"}, {"namespace", ns}}},
       {"spec",
        {{"nodes",
          {{"root",
            {{"routerType", "Sequence"},
             {"steps",
              json::array({{{"serviceName", "iris"}},
                           {{"serviceUrl", "http://u:graphsecret@iris.ml.svc/v1/models/iris:predict"}}})}}}}}}}});
  write_status(admin, v1alpha1 + "inferencegraphs", graph,
               {{"deploymentMode", "Knative"},
                {"conditions", json::array({condition("Ready", "True", "", "", std::chrono::minutes(20))})}});
  create(admin, v1alpha1 + "trainedmodels",
         {{"apiVersion", "serving.kserve.io/v1alpha1"},
          {"kind", "TrainedModel"},
          {"metadata", {{"name", "iris-a"}, {"namespace", ns}}},
          {"spec",
           {{"inferenceService", "iris"},
            {"model", {{"framework", "sklearn"}, {"memory", "256Mi"}, {"storageUri", "gs://models/iris-a"}}}}}});
}

fs::path dump_snapshot(admin_client& admin, const fs::path& dir) {
  return dump_lists(
      admin, dir,
      {"/apis/serving.kserve.io/v1beta1/inferenceservices", "/apis/serving.kserve.io/v1alpha1/servingruntimes",
       cluster_runtimes, "/apis/serving.kserve.io/v1alpha1/inferencegraphs",
       "/apis/serving.kserve.io/v1alpha1/trainedmodels", "/api/v1/pods", "/api/v1/nodes", "/apis/batch/v1/jobs",
       "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"});
}

std::string chosen_of(const json& details) {
  const json* chosen = find(details, {"runtime", "chosen"});
  if (chosen == nullptr || !chosen->is_object()) {
    return "";
  }
  return chosen->value("kind", "") + "/" + chosen->value("name", "");
}

std::string verdict_of(const json& details, const std::string& kind, const std::string& name) {
  for (const json& candidate : array_or_empty(details, {"runtime", "candidates"})) {
    if (candidate.value("kind", "") == kind && candidate.value("name", "") == name) {
      return candidate.value("verdict", "") + ": " + candidate.value("reason", "");
    }
  }
  return "";
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the KServe views --snapshot serves over the same objects",
          "[integration][kserve]") {
  test_cluster cluster({.crds = {upstream_crds("kserve").string()}});
  admin_client admin = cluster.admin();
  write_objects(admin);

  live_and_snapshot daemons(cluster.env("KUBECONFIG_TOKEN"), dump_snapshot(admin, cluster.dir() / "snapshot"),
                            cluster.dir());
  REQUIRE(daemons.ready());
  const sextantd_process& live = daemons.live;

  // Every list and details page, and the problems, the same in both modes.
  std::vector<std::string> pages = {"/api/v1/problems?category=kserve"};
  for (const auto& [resource, names] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"inferenceservices", {"ml/iris", "ml/broken"}},
           {"servingruntimes", {}},
           {"clusterservingruntimes", {"kserve-sklearnserver"}},
           {"inferencegraphs", {"ml/pipeline"}},
           {"trainedmodels", {"ml/iris-a"}}}) {
    const std::string list = "/api/v1/kserve/" + resource;
    CHECK(daemons.files.get(list)["items"].size() == names.size());
    pages.push_back(list);
    for (const std::string& name : names) {
      pages.push_back(list + "/" + name);
    }
  }
  CHECK(daemons.compare(pages) == std::vector<std::string>{});
  const std::string problems_path = pages.front();

  json iris = live.get(iris_path);
  CHECK(iris["state"]["label"] == "Ready");
  CHECK(iris["deploymentMode"] == "Knative");
  CHECK(iris["components"][0]["canary"]["percent"] == 10);
  CHECK(iris["components"][0]["canary"]["previousPercent"] == 90);
  CHECK(chosen_of(iris) == "ClusterServingRuntime/kserve-sklearnserver");
  CHECK(iris["runtime"]["note"].is_null());
  json broken = live.get(std::string("/api/v1/kserve/inferenceservices/") + ns + "/broken");
  CHECK(broken["state"]["label"] == "Failed");
  CHECK(broken["state"]["reason"] == "ModelLoadFailed");

  // Nothing with credentials reaches a list, a details answer or a problem.
  std::string everything = broken.dump() + live.get("/api/v1/kserve/inferenceservices").dump() +
                           live.get(std::string("/api/v1/kserve/inferencegraphs/") + ns + "/pipeline").dump() +
                           live.get(problems_path).dump();
  for (const char* secret : {"livesecret", "AKIALIVEKEY", "graphsecret"}) {
    INFO(secret);
    CHECK(everything.find(secret) == std::string::npos);
  }
  json problems = wait_for([&] { return live.get(problems_path); },
                           [](const json& answer) { return !array_or_empty(answer, {"problems"}).empty(); },
                           std::chrono::seconds(20));
  INFO(problems.dump().substr(0, 1500));
  REQUIRE(array_or_empty(problems, {"problems"}).size() == 1);
  CHECK(problems["problems"][0]["name"] == "broken");

  // A namespace runtime added while watched: it comes first, whatever the cluster's says, and
  // the status (which KServe would rewrite on its next reconcile) now differs from the replay.
  create(admin, v1alpha1 + "servingruntimes", serving_runtime("team-sklearn", true));
  iris = wait_for([&] { return live.get(iris_path); },
                  [](const json& details) { return chosen_of(details) == "ServingRuntime/team-sklearn"; });
  CHECK(chosen_of(iris) == "ServingRuntime/team-sklearn");
  CHECK(verdict_of(iris, "ClusterServingRuntime", "kserve-sklearnserver") ==
        "lost: a namespace runtime always comes first (team-sklearn)");
  CHECK(iris["runtime"]["note"].get<std::string>().find("KServe recorded Cluster Serving Runtime "
                                                        "kserve-sklearnserver in the status") != std::string::npos);

  // Disabled: rejected, and the cluster's runtime is chosen again.
  json stored = get_object(admin, v1alpha1 + "servingruntimes/team-sklearn");
  REQUIRE(stored.is_object());
  stored["spec"]["disabled"] = true;
  REQUIRE(admin.put(v1alpha1 + "servingruntimes/team-sklearn", stored).ok());
  iris =
      wait_for([&] { return live.get(iris_path); },
               [](const json& details) { return chosen_of(details) == "ClusterServingRuntime/kserve-sklearnserver"; });
  CHECK(chosen_of(iris) == "ClusterServingRuntime/kserve-sklearnserver");
  CHECK(verdict_of(iris, "ServingRuntime", "team-sklearn") == "rejected: disabled");
  CHECK(iris["runtime"]["note"].is_null());

  // Deleted: no longer a candidate.
  REQUIRE(admin.remove(v1alpha1 + "servingruntimes/team-sklearn").ok());
  iris = wait_for([&] { return live.get(iris_path); },
                  [](const json& details) { return verdict_of(details, "ServingRuntime", "team-sklearn").empty(); });
  CHECK(verdict_of(iris, "ServingRuntime", "team-sklearn").empty());
  CHECK(chosen_of(iris) == "ClusterServingRuntime/kserve-sklearnserver");
  CHECK(array_or_empty(iris, {"runtime", "candidates"}).size() == 1);
}

TEST_CASE("a reader who may not list Cluster Serving Runtimes is told the runtime choice cannot be told",
          "[integration][kserve]") {
  test_cluster cluster({.crds = {upstream_crds("kserve").string()}});
  admin_client admin = cluster.admin();
  write_objects(admin);

  // Everything the section reads but Cluster Serving Runtimes. A bare server aggregates no roles,
  // so the rules are explicit.
  json everything_core = {{"apiGroups", json::array({"", "batch"})},
                          {"resources", json::array({"*"})},
                          {"verbs", json::array({"get", "list", "watch"})}};
  json kserve_but_cluster_runtimes = {
      {"apiGroups", json::array({"serving.kserve.io"})},
      {"resources", json::array({"inferenceservices", "servingruntimes", "inferencegraphs", "trainedmodels"})},
      {"verbs", json::array({"get", "list", "watch"})}};
  json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "ClusterRole"},
               {"metadata", {{"name", "sextant-reader-without-cluster-runtimes"}}},
               {"rules", json::array({everything_core, kserve_but_cluster_runtimes})}};
  json binding = {
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "ClusterRoleBinding"},
      {"metadata", {{"name", "sextant-reader-without-cluster-runtimes"}}},
      {"roleRef",
       {{"apiGroup", "rbac.authorization.k8s.io"},
        {"kind", "ClusterRole"},
        {"name", "sextant-reader-without-cluster-runtimes"}}},
      {"subjects",
       json::array({{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "User"}, {"name", "sextant-reader"}}})}};
  create(admin, "/apis/rbac.authorization.k8s.io/v1/clusterroles", role);
  create(admin, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", binding);

  sextantd_process reader({"--kubeconfig", cluster.env("KUBECONFIG_READER")}, cluster.dir() / "reader.log");
  REQUIRE(reader.wait_ready(std::chrono::seconds(60)));
  json iris = wait_for(
      [&] { return reader.get(iris_path); },
      [](const json& details) { return details.contains("runtime") && details["runtime"]["note"].is_string(); });
  INFO(iris.dump().substr(0, 1500));
  CHECK(iris["runtime"]["chosen"].is_null());
  CHECK(array_or_empty(iris, {"runtime", "candidates"}).empty());
  CHECK(iris["runtime"]["recorded"] == json({{"kind", "ClusterServingRuntime"}, {"name", "kserve-sklearnserver"}}));
  CHECK_THAT(iris["runtime"]["note"].get<std::string>(),
             Catch::StartsWith("cannot be told: the Cluster Serving Runtimes are forbidden"));
  // The rest of the view is still told.
  CHECK(iris["state"]["label"] == "Ready");
}
