// The leak battery of issue 31: distinct canary secrets planted in every shape the issue names
// (support/secret_shapes.hpp) into Ray Jobs, Ray Services, Ray Clusters, Inference Services,
// Inference Graphs and Trained Models, loaded as a snapshot, and every route that can show them
// asked: lists, details, problems, /metrics, and the log routes' refusals. No canary may appear
// anywhere, in whole or in part, while the harmless parts of each text (model names, the spec's
// exceptions, flags without secrets) still do.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/demo_daemon.hpp"
#include "support/secret_shapes.hpp"

using namespace sextant;
using sextant::testing::canary_maker;
using sextant::testing::planted_shape;
using sextant::testing::shape_carrier;

namespace {

constexpr const char* now = "2026-11-29T12:00:00Z";
constexpr const char* an_hour_ago = "2026-11-29T11:00:00Z";

json metadata(const std::string& name) {
  return {{"name", name}, {"namespace", "ml"}, {"uid", "uid-" + name}, {"creationTimestamp", "2026-11-29T09:00:00Z"}};
}

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message) {
  return {{"type", type},
          {"status", status},
          {"reason", reason},
          {"message", message},
          {"lastTransitionTime", an_hour_ago}};
}

// A URI with credentials, a signature and a fragment, each a canary of its own.
std::string uri_with_secrets(const std::string& scheme, canary_maker& canaries, std::vector<std::string>& planted) {
  const std::string user = canaries.next();
  const std::string password = canaries.next();
  const std::string signature = canaries.next();
  const std::string fragment = canaries.next();
  planted.insert(planted.end(), {user, password, signature, fragment});
  return scheme + "://" + user + ":p^|{" + password + "@store.example.com/models/iris?X-Amz-Signature=" + signature +
         "#" + fragment;
}

struct battery {
  std::vector<planted_shape> shapes;  // every shape planted, by canary number order
  json objects = json::array();
  std::vector<std::string> details;                                    // the details routes of every object
  std::vector<std::pair<std::string, std::vector<std::string>>> kept;  // a details route and what it must show
};

void add_message_carriers(battery& b, const std::vector<planted_shape>& messages, canary_maker& canaries) {
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string& message = messages[i].text;
    const std::string& next = messages[(i + 1) % messages.size()].text;
    std::vector<std::string> extra;
    const std::string n = std::to_string(i);

    b.objects.push_back({{"apiVersion", "ray.io/v1"},
                         {"kind", "RayCluster"},
                         {"metadata", metadata("cluster-" + n)},
                         {"spec", {{"workerGroupSpecs", json::array()}}},
                         {"status",
                          {{"conditions",
                            {condition("ReplicaFailure", "True", "FailedCreatePod", message),
                             condition("HeadPodReady", "False", "Crash", next)}}}}});
    b.details.push_back("/api/v1/kuberay/rayclusters/ml/cluster-" + n);

    json service = {
        {"apiVersion", "serving.kserve.io/v1beta1"},
        {"kind", "InferenceService"},
        {"metadata", metadata("isvc-" + n)},
        {"spec",
         {{"predictor",
           {{"model",
             {{"modelFormat", {{"name", "sklearn"}}}, {"storageUri", uri_with_secrets("s3", canaries, extra)}}},
            {"logger", {{"url", uri_with_secrets("https", canaries, extra)}}}}}}},
        {"status",
         {{"url", uri_with_secrets("https", canaries, extra)},
          {"address", {{"url", uri_with_secrets("http", canaries, extra)}}},
          {"deploymentMode", "Knative"},
          {"components",
           {{"predictor",
             {{"url", uri_with_secrets("https", canaries, extra)},
              {"traffic",
               {{{"revisionName", "isvc-" + n + "-00001"},
                 {"latestRevision", true},
                 {"percent", 100},
                 {"url", uri_with_secrets("https", canaries, extra)}}}}}}}},
          {"modelStatus",
           {{"transitionStatus", "BlockedByFailedLoad"},
            {"states", {{"targetModelState", "FailedToLoad"}}},
            {"lastFailureInfo", {{"reason", "ModelLoadFailed"}, {"message", message}, {"time", an_hour_ago}}}}},
          {"conditions",
           {condition("PredictorReady", "False", "RevisionFailed", next),
            condition("Ready", "False", "RevisionFailed", message)}}}}};
    b.objects.push_back(std::move(service));
    b.details.push_back("/api/v1/kserve/inferenceservices/ml/isvc-" + n);

    b.objects.push_back(
        {{"apiVersion", "serving.kserve.io/v1alpha1"},
         {"kind", "InferenceGraph"},
         {"metadata", metadata("graph-" + n)},
         {"spec",
          {{"nodes",
            {{"root",
              {{"routerType", "Sequence"},
               {"steps", {{{"name", "step"}, {"serviceUrl", uri_with_secrets("http", canaries, extra)}}}}}}}}}},
         {"status",
          {{"url", uri_with_secrets("https", canaries, extra)},
           {"conditions", {condition("Ready", "False", "RevisionFailed", message)}}}}});
    b.details.push_back("/api/v1/kserve/inferencegraphs/ml/graph-" + n);

    b.objects.push_back(
        {{"apiVersion", "serving.kserve.io/v1alpha1"},
         {"kind", "TrainedModel"},
         {"metadata", metadata("model-" + n)},
         {"spec",
          {{"inferenceService", "isvc-" + n},
           {"model",
            {{"framework", "sklearn"}, {"memory", "1Gi"}, {"storageUri", uri_with_secrets("gs", canaries, extra)}}}}},
         {"status",
          {{"url", uri_with_secrets("https", canaries, extra)},
           {"conditions",
            {condition("Ready", "False", "NotReady", next),
             condition("InferenceServiceReady", "False", "NotReady", message)}}}}});
    b.details.push_back("/api/v1/kserve/trainedmodels/ml/model-" + n);

    planted_shape uris;
    uris.carrier = shape_carrier::message;
    uris.what = "URI fields of isvc-" + n + ", graph-" + n + " and model-" + n;
    uris.canaries = std::move(extra);
    b.shapes.push_back(std::move(uris));
  }
}

battery planted_battery() {
  battery b;
  canary_maker canaries;
  std::vector<planted_shape> commands = testing::planted_shapes(shape_carrier::command_line, canaries);
  std::vector<planted_shape> configs = testing::planted_shapes(shape_carrier::serve_config, canaries);
  std::vector<planted_shape> messages = testing::planted_shapes(shape_carrier::message, canaries);
  REQUIRE(commands.size() > 1000);
  REQUIRE(configs.size() > 1000);
  REQUIRE(messages.size() > 30);

  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::string name = "job-" + std::to_string(i);
    b.objects.push_back({{"apiVersion", "ray.io/v1"},
                         {"kind", "RayJob"},
                         {"metadata", metadata(name)},
                         {"spec", {{"entrypoint", commands[i].text}, {"backoffLimit", 0}}},
                         {"status",
                          {{"jobDeploymentStatus", "Failed"},
                           {"jobStatus", "FAILED"},
                           {"reason", "AppFailed"},
                           {"failed", 1},
                           {"message", messages[i % messages.size()].text},
                           {"endTime", an_hour_ago}}}});
    b.details.push_back("/api/v1/kuberay/rayjobs/ml/" + name);
    b.kept.emplace_back(b.details.back(), commands[i].kept);
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string name = "svc-" + std::to_string(i);
    b.objects.push_back(
        {{"apiVersion", "ray.io/v1"},
         {"kind", "RayService"},
         {"metadata", metadata(name)},
         {"spec", {{"serveConfigV2", configs[i].text}}},
         {"status",
          {{"conditions",
            {condition("Ready", "False", "ServeDeploymentsUnhealthy", messages[i % messages.size()].text)}},
           {"activeServiceStatus",
            {{"rayClusterName", name + "-raycluster"},
             {"applicationStatuses",
              {{"llm-app",
                {{"status", "UNHEALTHY"},
                 {"message", messages[(i + 3) % messages.size()].text},
                 {"healthLastUpdateTime", an_hour_ago}}}}}}}}}});
    b.details.push_back("/api/v1/kuberay/rayservices/ml/" + name);
    b.kept.emplace_back(b.details.back(), configs[i].kept);
  }
  add_message_carriers(b, messages, canaries);
  for (auto* planted : {&commands, &configs, &messages}) {
    b.shapes.insert(b.shapes.end(), planted->begin(), planted->end());
  }
  return b;
}

// The shape whose canary a leaked fragment belongs to, in words.
std::string leaked_shape(const battery& b, const std::string& body, std::size_t at) {
  std::size_t start = at;
  while (start > 0 && std::isalnum(static_cast<unsigned char>(body[start - 1])) != 0) {
    --start;
  }
  std::size_t end = at;
  while (end < body.size() && std::isalnum(static_cast<unsigned char>(body[end])) != 0) {
    ++end;
  }
  const std::string word = body.substr(start, end - start);
  for (const planted_shape& shape : b.shapes) {
    for (const std::string& canary : shape.canaries) {
      if (word.find(canary) != std::string::npos || canary.find(word) != std::string::npos) {
        return shape.what + "\n  text: " + shape.text;
      }
    }
  }
  return "(no shape: " + word + ")";
}

// Every canary begins with "Zq" and ends with "Vw", and nothing else in the battery holds either:
// any of the two in an answer is a secret shown, whole or in part.
void require_no_canary(const battery& b, const std::string& route, const std::string& body) {
  for (const char* mark : {"Zq", "Vw"}) {
    std::size_t at = body.find(mark);
    if (at != std::string::npos) {
      const std::size_t from = at < 200 ? 0 : at - 200;
      FAIL_CHECK("a secret leaked through " << route << "\n  shape: " << leaked_shape(b, body, at) << "\n  answer: …"
                                            << body.substr(from, 400) << "…");
    }
  }
}

}  // namespace

TEST_CASE("leak battery: no planted secret reaches any route, and the harmless parts do", "[masking][leak-battery]") {
  battery b = planted_battery();
  json snapshot = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", b.objects}};
  testing::snapshot_daemon daemon(snapshot.dump(), true, now, true);

  std::size_t asked = 0;
  auto ask = [&](const std::string& route) {
    auto [status, body] = daemon.get_text(route);
    ++asked;
    INFO(route);
    CHECK(status == 200);
    require_no_canary(b, route, body);
    return body;
  };
  for (const char* list :
       {"/api/v1/kuberay/rayjobs", "/api/v1/kuberay/rayservices", "/api/v1/kuberay/rayclusters",
        "/api/v1/kserve/inferenceservices", "/api/v1/kserve/inferencegraphs", "/api/v1/kserve/trainedmodels"}) {
    ask(list);
    ask(std::string(list) + "?namespace=ml&limit=7");
  }
  std::map<std::string, std::string> details;
  for (const std::string& route : b.details) {
    details[route] = ask(route);
  }
  const std::string problems = ask("/api/v1/problems");
  ask("/api/v1/problems?category=kuberay");
  ask("/api/v1/problems?category=kserve");
  const std::string metrics = ask("/metrics");
  CHECK(asked == b.details.size() + 16);

  // Every carrier raised its problem, so the problems route was asked about every message.
  json found = json::parse(problems);
  std::set<std::string> with_problems;
  for (const json& p : found["problems"]) {
    with_problems.insert(p["name"].get<std::string>());
  }
  CHECK(with_problems.count("job-0") == 1);
  CHECK(with_problems.count("svc-0") == 1);
  CHECK(with_problems.count("cluster-0") == 1);
  CHECK(with_problems.count("isvc-0") == 1);
  CHECK(metrics.find("sextant_problem{") != std::string::npos);

  // The harmless parts are still shown: masking hid the secrets, not the texts.
  std::size_t see_yaml = 0;
  for (const auto& [route, kept] : b.kept) {
    const std::string& body = details[route];
    if (body.find("\"see YAML\"") != std::string::npos) {
      ++see_yaml;
      INFO(route << " shows no text:\n" << body.substr(0, 2000));
      CHECK(false);
      continue;
    }
    for (const std::string& part : kept) {
      INFO(route << " lost \"" << part << "\":\n" << body.substr(0, 3000));
      CHECK(body.find(json(part).dump().substr(1, json(part).dump().size() - 2)) != std::string::npos);
    }
  }
  CHECK(see_yaml == 0);
  CHECK(details["/api/v1/kuberay/rayjobs/ml/job-0"].find("Job failed (exit code 1)") != std::string::npos);
  CHECK(details["/api/v1/kserve/inferenceservices/ml/isvc-0"].find("store.example.com/models/iris") !=
        std::string::npos);
  CHECK(details["/api/v1/kserve/inferenceservices/ml/isvc-0"].find("credentials and query hidden") !=
        std::string::npos);
}

TEST_CASE("leak battery: the log routes' refusals pass the masking too", "[masking][leak-battery]") {
  // A refusal quotes what it refuses: an unknown parameter here, named with a URL that carries a
  // password. Every error the router sends goes through masking::operator_text (error_response).
  testing::snapshot_daemon daemon(
      R"({"apiVersion": "ray.io/v1", "kind": "RayJob", "metadata": {"name": "job", "namespace": "ml"},
          "spec": {"entrypoint": "python x.py"}})",
      true, now, true);
  for (const char* route : {"/api/v1/kuberay/rayjobs/ml/job/logs?https://u:p%7CZq1Vw@host.example/x=1",
                            "/api/v1/kuberay/rayjobs/ml/job/logs?role=submitter&x=s3://a:Zq3Vw@b/c",
                            "/api/v1/kuberay/rayjobs?https://u:Zq4Vw@host.example/x=1"}) {
    auto [status, body] = daemon.get_text(route);
    INFO(route << " -> " << body);
    CHECK(status == 400);
    CHECK(body.find("unknown query parameter") != std::string::npos);
    CHECK(body.find("Zq") == std::string::npos);
  }
  auto [status, body] = daemon.get_text("/api/v1/kuberay/rayjobs/ml/job/logs?role=submitter");
  CHECK(status == 404);
  CHECK(body.find("a snapshot holds no logs") != std::string::npos);
}
