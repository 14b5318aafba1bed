// Inference Services: every state and every failure reason the notes list, the explanation's
// order (the model's failure, then components before configurations, deployments, routes and
// ingress), the deployment mode in its new and legacy names, the components and a 10 % canary,
// links by name to what KServe made, and every URI shown without credentials or query.
// Fixtures: tests/fixtures/kserve/ (our own, from the v0.16.0 CRD schemas).
#include <catch2/catch.hpp>

#include "sections/kserve/kserve_section.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster loaded() {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  for (const char* file : {"inferenceservices.yaml", "runtimes.yaml", "graphs-and-models.yaml"}) {
    cluster.load_file(testing::fixtures_dir() / "kserve" / file);
  }
  testing::mark_complete(cluster);
  return cluster;
}

object_state state(const fixture_cluster& cluster, const std::string& name) {
  return testing::state_of(cluster, kserve::inference_service_kind, "ml", name);
}

json view(const fixture_cluster& cluster, const std::string& name) {
  return testing::view_of(cluster, kserve::inference_service_kind, "ml", name);
}

// No secret of the fixtures appears anywhere in a view.
void check_no_secret(const json& shown) {
  const std::string text = shown.dump();
  for (const char* secret :
       {"loadsecret", "AKIAEXAMPLEKEY", "hunter2", "modeluser", "probepass", "pullpass", "X-Amz-Signature", "5ec7e7",
        "azuresig", "sig=", "goog5ig", "X-Goog", "urltoken", "logpass", "steppass", "graphpass", "tmsecret", "tmkey"}) {
    INFO(secret);
    CHECK(text.find(secret) == std::string::npos);
  }
}

}  // namespace

TEST_CASE("Inference Service states", "[kserve]") {
  fixture_cluster cluster = loaded();
  CHECK(state(cluster, "ready-knative").label == "Ready");
  CHECK(state(cluster, "canary").label == "Ready");
  CHECK(state(cluster, "standard-legacy").label == "Ready");
  CHECK(state(cluster, "annotation-serverless").label == "Progressing");  // nothing reported yet
  CHECK(state(cluster, "default-mode").label == "Progressing");
  CHECK(state(cluster, "loading-large").label == "Progressing");
  CHECK(state(cluster, "failed-load").label == "Failed");
  CHECK(state(cluster, "runtime-unhealthy").label == "Not ready");
  CHECK(state(cluster, "stopped-annotation").label == "Stopped");
  CHECK(state(cluster, "stopped-condition").label == "Stopped");
  CHECK(state(cluster, "ingress-not-ready").label == "Not ready");
  CHECK(state(cluster, "transformer-not-ready").label == "Not ready");
  CHECK(state(cluster, "custom-container").label == "Ready");
}

TEST_CASE("Inference Service failures: every reason, the model's own message first", "[kserve]") {
  fixture_cluster cluster = loaded();
  struct failed_case {
    const char* name;
    const char* reason;
    const char* message;
  };
  // lastFailureInfo reasons (the CRD's enum, RuntimeUnhealthy apart) and the Go-only
  // PredictorReady reasons: each Failed, with KServe's own words.
  for (const failed_case& c : std::vector<failed_case>{
           {"failed-load", "ModelLoadFailed", "failed to download s3://models/iris: AccessDenied"},
           {"runtime-disabled", "RuntimeDisabled", "Specified runtime is disabled"},
           {"no-supporting-runtime", "NoSupportingRuntime", "No runtime found to support specified framework/version"},
           {"runtime-not-recognized", "RuntimeNotRecognized", "Waiting for runtime to become available"},
           {"invalid-predictor-spec", "InvalidPredictorSpec", "No container configuration found"},
           {"worker-spec-not-set", "InvalidWorkerSpecNotSet", "does not have workerSpec"},
           {"gpu-allocation", "InvalidGPUAllocation", "tensorParallelSize 3"}}) {
    INFO(c.name);
    object_state s = state(cluster, c.name);
    CHECK(s.label == "Failed");
    CHECK(s.reason == c.reason);
    CHECK(s.message.find(c.message) != std::string::npos);
  }
  // The failed load's message had a URI with credentials: it is stripped, and says so.
  CHECK(state(cluster, "failed-load").message ==
        "failed to download s3://models/iris: AccessDenied (credentials and query hidden)");
  json failed = view(cluster, "failed-load");
  CHECK(failed["explanation"]["source"] == "modelStatus.lastFailureInfo");
  CHECK(failed["modelStatus"]["lastFailureInfo"]["exitCode"] == 1);
  CHECK(failed["modelStatus"]["lastFailureInfo"]["location"] == "storage-initializer");
  CHECK(failed["modelStatus"]["says"].get<std::string>().find("failed to load") != std::string::npos);
  CHECK(failed["since"] == "2026-11-29T11:05:00Z");

  // RuntimeUnhealthy recorded while the model is Loaded and UpToDate: KServe never clears
  // lastFailureInfo, so it is history, shown stripped in the details; the failing condition explains.
  object_state unhealthy = state(cluster, "runtime-unhealthy");
  CHECK(unhealthy.label == "Not ready");
  CHECK(unhealthy.reason == "MinimumReplicasUnavailable");
  CHECK(unhealthy.message == "Deployment does not have minimum availability.");
  json unhealthy_view = view(cluster, "runtime-unhealthy");
  CHECK(unhealthy_view["modelStatus"]["lastFailureInfo"]["current"] == false);
  CHECK(unhealthy_view["modelStatus"]["lastFailureInfo"]["message"] ==
        "The runtime's health check failed at http://10.0.0.7:8080/v2/health/ready (credentials and query hidden)");
}

TEST_CASE("Inference Service explanation: components before configurations, routes and ingress", "[kserve]") {
  fixture_cluster cluster = loaded();
  json component = view(cluster, "component-before-configuration");
  CHECK(component["explanation"]["source"] == "PredictorReady");
  CHECK(component["explanation"]["message"] ==
        "Revision failed: image pull from https://registry.example.com/v2/sk denied (credentials and query hidden)");
  CHECK(view(cluster, "route-not-ready")["explanation"]["source"] == "PredictorRouteReady");
  CHECK(view(cluster, "ingress-not-ready")["explanation"]["source"] == "IngressReady");
  CHECK(state(cluster, "ingress-not-ready").reason == "Predictor ingress not created");
  CHECK(view(cluster, "transformer-not-ready")["explanation"]["source"] == "TransformerReady");
  CHECK(view(cluster, "ready-knative")["explanation"].is_null());
  // Progressing: the condition explains, and the model status says what it waits for.
  json loading = view(cluster, "loading-large");
  CHECK(loading["explanation"]["reason"] == "RevisionMissing");
  CHECK(loading["modelStatus"]["says"].get<std::string>().find("still be downloading") != std::string::npos);
  CHECK(loading["since"] == "2026-11-29T11:30:00Z");
}

TEST_CASE("Inference Service deployment mode: new and legacy names, and the cluster's default", "[kserve]") {
  fixture_cluster cluster = loaded();
  json knative = view(cluster, "ready-knative");
  CHECK(knative["deployment"] == json({{"mode", "Knative"}, {"source", "status"}, {"written", "Knative"}}));
  CHECK(knative["deploymentMode"] == "Knative");
  json legacy = view(cluster, "standard-legacy");
  CHECK(legacy["deployment"] == json({{"mode", "Standard"}, {"source", "status"}, {"written", "RawDeployment"}}));
  json serverless = view(cluster, "annotation-serverless");
  CHECK(serverless["deployment"] == json({{"mode", "Knative"}, {"source", "annotation"}, {"written", "Serverless"}}));
  CHECK(view(cluster, "annotation-standard")["deployment"]["mode"] == "Standard");
  json unknown = view(cluster, "default-mode");
  CHECK(unknown["deployment"]["mode"] == "the cluster's default");
  CHECK(unknown["deployment"]["source"].is_null());
  CHECK(testing::has_note_containing(unknown, "the cluster's default deployment mode, which the daemon does not read"));
}

TEST_CASE("Inference Service components, a 10 % canary and the links to what KServe made", "[kserve]") {
  fixture_cluster cluster = loaded();
  json canary = view(cluster, "canary");
  REQUIRE(canary["components"].size() == 1);
  const json& predictor = canary["components"][0];
  CHECK(predictor["name"] == "predictor");
  CHECK(predictor["canaryTrafficPercent"] == 10);
  CHECK(predictor["canary"] == json({{"revision", "canary-predictor-00002"},
                                     {"percent", 10},
                                     {"previousRevision", "canary-predictor-00001"},
                                     {"previousPercent", 90}}));
  REQUIRE(predictor["traffic"].size() == 2);
  CHECK(predictor["traffic"][1]["tag"] == "prev");
  CHECK(predictor["traffic"][1]["url"]["uri"] == "http://prev-canary-predictor.ml.example.com");
  CHECK(testing::link_with(canary, "knative-service", "canary-predictor") != nullptr);
  CHECK(testing::link_with(canary, "knative-revision", "canary-predictor-00001") != nullptr);
  CHECK(testing::link_with(canary, "knative-revision", "canary-predictor-00002") != nullptr);
  CHECK((*testing::link_with(canary, "knative-revision", "canary-predictor-00001"))["path"].is_null());

  json ready = view(cluster, "ready-knative");
  CHECK(ready["components"][0]["canary"].is_null());
  CHECK(ready["components"][0]["url"] ==
        json({{"uri", "http://ready-knative-predictor.ml.example.com"}, {"note", nullptr}}));
  CHECK(ready["components"][0]["ready"] == "True");

  json standard = view(cluster, "standard-legacy");
  CHECK(testing::link_with(standard, "deployment", "standard-legacy-predictor") != nullptr);
  CHECK(testing::link_with(standard, "service", "standard-legacy-predictor") != nullptr);
  CHECK(testing::link_with(standard, "knative-service", "standard-legacy-predictor") == nullptr);
  CHECK(testing::has_note_containing(standard, "linked by the names it gives"));

  json transformer = view(cluster, "transformer-not-ready");
  REQUIRE(transformer["components"].size() == 2);
  CHECK(transformer["components"][1]["name"] == "transformer");
  CHECK(transformer["components"][1]["inSpec"] == true);
  CHECK(transformer["components"][1]["ready"] == "False");
  CHECK(testing::link_with(transformer, "knative-service", "transformer-not-ready-transformer") != nullptr);
}

TEST_CASE("A canary percent the status does not show yet is explained", "[kserve]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: first, namespace: ml}
spec: {predictor: {canaryTrafficPercent: 10, model: {modelFormat: {name: sklearn}}}}
status: {deploymentMode: Knative, components: {predictor: {latestCreatedRevision: first-predictor-00001}}}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: standard, namespace: ml}
spec: {predictor: {canaryTrafficPercent: 10, model: {modelFormat: {name: sklearn}}}}
status: {deploymentMode: Standard}
)");
  testing::mark_complete(cluster);
  CHECK(testing::has_note_containing(testing::view_of(cluster, kserve::inference_service_kind, "ml", "first"),
                                     "takes effect once a revision has rolled out"));
  CHECK(testing::has_note_containing(testing::view_of(cluster, kserve::inference_service_kind, "ml", "standard"),
                                     "in Knative mode only"));
}

TEST_CASE("Inference Service URIs lose credentials and queries, and say so", "[kserve]") {
  fixture_cluster cluster = loaded();
  json shorthand = view(cluster, "shorthand-sklearn");
  REQUIRE(shorthand["storageUris"].size() == 2);
  CHECK(shorthand["storageUris"][0] == json({{"uri", "https://bucket.s3.amazonaws.com/iris.joblib"},
                                             {"note", "credentials and query hidden"},
                                             {"field", "spec.predictor.sklearn.storageUri"}}));
  CHECK(shorthand["storageUris"][1]["field"] == "spec.predictor.logger.url");
  CHECK(shorthand["storageUris"][1]["uri"] == "http://logger.ml.svc/");
  CHECK(shorthand["modelFormat"] == "sklearn");

  json presigned = view(cluster, "presigned-gcs-azure");
  REQUIRE(presigned["storageUris"].size() == 2);
  CHECK(presigned["storageUris"][0]["uri"] == "https://acct.blob.core.windows.net/models/m.onnx");
  CHECK(presigned["storageUris"][1]["field"] == "spec.predictor.storageUris[0].uri");
  CHECK(presigned["storageUris"][1]["uri"] == "https://storage.googleapis.com/b/o");
  CHECK(presigned["url"] ==
        json({{"uri", "https://presigned-gcs-azure.ml.example.com"}, {"note", "credentials and query hidden"}}));

  json plain = view(cluster, "ready-knative");
  CHECK(plain["storageUris"][0] == json({{"uri", "gs://kfserving-examples/models/sklearn/1.0/model"},
                                         {"note", nullptr},
                                         {"field", "spec.predictor.model.storageUri"}}));
  CHECK(view(cluster, "standard-legacy")["storageUris"][0]["uri"] == "https://models.example.com/iris.joblib");

  for (const object_ptr& service : cluster.store.list(kserve::inference_service_kind)) {
    INFO(service->name);
    check_no_secret(testing::view_of(cluster, *service));
  }
}

TEST_CASE("Inference Service runtime choice in the details", "[kserve]") {
  fixture_cluster cluster = loaded();
  json ready = view(cluster, "ready-knative");
  CHECK(ready["runtime"]["chosen"] == json({{"kind", "ServingRuntime"}, {"name", "kserve-sklearnserver"}}));
  CHECK(ready["runtime"]["recorded"] == json({{"kind", "ServingRuntime"}, {"name", "kserve-sklearnserver"}}));
  CHECK(ready["runtime"]["note"].is_null());
  const json& candidates = ready["runtime"]["candidates"];
  REQUIRE(candidates.size() == 6);
  CHECK(candidates[1] == json({{"kind", "ClusterServingRuntime"},
                               {"name", "kserve-sklearnserver"},
                               {"verdict", "lost"},
                               {"reason", "a namespace runtime always comes first (kserve-sklearnserver)"}}));
  CHECK(candidates[2]["reason"] == "auto-select is off for sklearn");
  CHECK(candidates[3]["reason"] == "disabled");
  CHECK(testing::link_with(ready, "runtime", "kserve-sklearnserver") != nullptr);

  json differs = view(cluster, "recorded-differs");
  CHECK(differs["runtime"]["recorded"]["kind"] == "ClusterServingRuntime");
  CHECK(differs["runtime"]["chosen"]["kind"] == "ServingRuntime");
  CHECK(differs["runtime"]["note"].get<std::string>().find("KServe recorded Cluster Serving Runtime "
                                                           "kserve-sklearnserver in the status") != std::string::npos);
  CHECK(testing::link_with(differs, "recorded-runtime", "kserve-sklearnserver") != nullptr);

  json named_disabled = view(cluster, "runtime-disabled");
  CHECK(named_disabled["runtime"]["chosen"].is_null());
  CHECK(named_disabled["runtime"]["candidates"][0]["verdict"] == "rejected");

  json triton = view(cluster, "presigned-gcs-azure");
  CHECK(triton["runtime"]["chosen"] == json({{"kind", "ClusterServingRuntime"}, {"name", "kserve-tritonserver"}}));
  CHECK(view(cluster, "custom-container")["runtime"]["note"] ==
        "The predictor runs its own containers: KServe uses no Serving Runtime.");
}

TEST_CASE("Serving Runtimes: what each offers, and who uses it", "[kserve]") {
  fixture_cluster cluster = loaded();
  CHECK(testing::state_of(cluster, kserve::serving_runtime_kind, "ml", "retired-xgb").label == "Disabled");
  CHECK(testing::state_of(cluster, kserve::serving_runtime_kind, "ml", "kserve-sklearnserver").label == "Enabled");
  json sk = testing::view_of(cluster, kserve::serving_runtime_kind, "ml", "kserve-sklearnserver");
  CHECK(sk["supportedModelFormats"][0] ==
        json({{"name", "sklearn"}, {"version", "1"}, {"autoSelect", true}, {"priority", 1}}));
  CHECK(sk["protocolVersions"] == json({"v1", "v2"}));
  CHECK(sk["usedBy"]["items"].size() == 4);  // ready-knative, canary, failed-load, shorthand-sklearn
  json cluster_triton = testing::view_of(cluster, kserve::cluster_serving_runtime_kind, "", "kserve-tritonserver");
  CHECK(cluster_triton["usedBy"]["items"].size() == 1);
  CHECK(cluster_triton["modelFormats"] == json({"tensorflow", "onnx"}));
  CHECK(cluster_triton["multiNode"] == false);
}

TEST_CASE("Inference Graphs and Trained Models: state from their conditions, URLs stripped", "[kserve]") {
  fixture_cluster cluster = loaded();
  const kind_key& graph = kserve::inference_graph_kind;
  CHECK(testing::state_of(cluster, graph, "ml", "ensemble").label == "Ready");
  CHECK(testing::state_of(cluster, graph, "ml", "graph-not-ready").label == "Not ready");
  CHECK(testing::state_of(cluster, graph, "ml", "graph-not-ready").message ==
        "Revision \"graph-not-ready-00001\" failed pulling https://registry.example.com/router (credentials and query "
        "hidden)");
  CHECK(testing::state_of(cluster, graph, "ml", "graph-stopped").label == "Stopped");
  CHECK(testing::state_of(cluster, graph, "ml", "graph-new").label == "Progressing");
  json ensemble = testing::view_of(cluster, graph, "ml", "ensemble");
  const json& steps = ensemble["nodes"][0]["steps"];
  CHECK(steps[1]["serviceUrl"] == json({{"uri", "http://canary.ml.svc.cluster.local/v1/models/canary:predict"},
                                        {"note", "credentials and query hidden"}}));
  CHECK(testing::link_with(ensemble, "step-service", "ready-knative") != nullptr);
  CHECK(testing::has_note_containing(testing::view_of(cluster, graph, "ml", "standard-graph"),
                                     "whatever that condition's status"));

  const kind_key& model = kserve::trained_model_kind;
  CHECK(testing::state_of(cluster, model, "ml", "iris-a").label == "Ready");
  object_state waiting = testing::state_of(cluster, model, "ml", "iris-waiting");
  CHECK(waiting.label == "Not ready");
  CHECK(waiting.reason == "InferenceServiceNotReady");  // the most basic of the two failing
  CHECK(testing::state_of(cluster, model, "ml", "iris-not-mms").reason == "IsNotMMSPredictor");
  json iris = testing::view_of(cluster, model, "ml", "iris-a");
  CHECK(iris["model"]["storageUri"] == json({{"uri", "s3://models/iris-a"}, {"note", "credentials and query hidden"}}));
  CHECK(testing::link_with(iris, "inference-service", "ready-knative") != nullptr);
  for (const kind_key& type : {graph, model}) {
    for (const object_ptr& object : cluster.store.list(type)) {
      check_no_secret(testing::view_of(cluster, *object));
    }
  }
}
