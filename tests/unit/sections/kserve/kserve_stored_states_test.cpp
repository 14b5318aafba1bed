// What a stored Inference Service means, whichever KServe wrote it (issue 34): a model that
// failed once keeps its lastFailureInfo for ever, so only the transition and target states tell
// a failure now; v0.20's Standard-mode canaries (spec.canary, status.canaryStatuses) are read
// and shown beside the Knative split, their storage URIs stripped; a named predictor's objects
// are linked by the names v0.20 gives them. Objects are written as KServe writes them, inline;
// the upstream file and line (github.com/kserve/kserve) are cited beside each.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster stored_cluster(const std::string& objects) {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(objects);
  testing::mark_complete(cluster);
  return cluster;
}

json stored_view(const fixture_cluster& cluster, const std::string& name) {
  return testing::view_of(cluster, kserve::inference_service_kind, "ml", name);
}

std::vector<problem> stored_problems(const fixture_cluster& cluster) {
  section s = kserve::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(cluster.context());
  return engine.current();
}

// A service that failed to load its model at 10:00 (ModelLoadFailed, written with the failure by
// UpdateModelRevisionStates(FailedToLoad, info): pkg/apis/serving/v1beta1/
// inference_service_status.go:658-677,765-778 at v0.20.0) and whose status now says `now`.
std::string failed_once_then(const std::string& name, const std::string& model_states, const std::string& ready) {
  return "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
         "metadata: {name: " +
         name + ", namespace: ml, creationTimestamp: \"2026-11-28T09:00:00Z\"}\n" +
         "spec: {predictor: {model: {modelFormat: {name: sklearn}, storageUri: \"s3://models/iris/v3\"}}}\n"
         "status:\n"
         "  deploymentMode: Knative\n"
         "  modelStatus:\n" +
         model_states +
         "    lastFailureInfo:\n"
         "      location: storage-initializer\n"
         "      reason: ModelLoadFailed\n"
         "      message: \"failed to download s3://AKIAOLD:oldsecret@models/iris/v2: AccessDenied\"\n"
         "      exitCode: 1\n"
         "      time: \"2026-11-29T10:00:00Z\"\n"
         "  conditions:\n"
         "  - {type: PredictorReady, status: \"" +
         ready + "\", lastTransitionTime: \"2026-11-29T11:50:00Z\"}\n" + "  - {type: Ready, status: \"" + ready +
         "\", lastTransitionTime: \"2026-11-29T11:50:00Z\"}\n---\n";
}

}  // namespace

TEST_CASE("a model that failed once is not Failed for ever: lastFailureInfo is history", "[kserve][issue34]") {
  // UpdateModelRevisionStates(Pending|Loading|Loaded, nil) sets the transition and target states
  // and leaves lastFailureInfo as it was (inference_service_status.go:658-677 at v0.20.0): a later
  // rollout (Loading), a Knative service scaled to zero (Pending, :730-745) and a load (Loaded).
  fixture_cluster cluster = stored_cluster(
      failed_once_then(
          "rolling-out",
          "    transitionStatus: InProgress\n    states: {activeModelState: Loaded, targetModelState: Loading}\n",
          "True") +
      failed_once_then(
          "scaled-to-zero",
          "    transitionStatus: InProgress\n    states: {activeModelState: Loaded, targetModelState: Pending}\n",
          "True") +
      failed_once_then(
          "loaded-again",
          "    transitionStatus: UpToDate\n    states: {activeModelState: Loaded, targetModelState: Loaded}\n",
          "True") +
      failed_once_then(
          "loading-not-ready",
          "    transitionStatus: InProgress\n    states: {activeModelState: \"\", targetModelState: Loading}\n",
          "False") +
      // Failing now: BlockedByFailedLoad with FailedToLoad, the record then the current failure's.
      failed_once_then("failing-now",
                       "    transitionStatus: BlockedByFailedLoad\n"
                       "    states: {activeModelState: Loaded, targetModelState: FailedToLoad}\n",
                       "True"));
  for (const char* name : {"rolling-out", "scaled-to-zero", "loaded-again"}) {
    INFO(name);
    json shown = stored_view(cluster, name);
    CHECK(shown["state"]["label"] == "Ready");
    CHECK(shown["explanation"].is_null());
    CHECK(shown["modelStatus"]["lastFailureInfo"]["current"] == false);
    CHECK(shown["modelStatus"]["lastFailureInfo"]["reason"] == "ModelLoadFailed");
    CHECK(testing::has_note_containing(shown,
                                       "records an earlier failure (ModelLoadFailed), which KServe never "
                                       "clears"));
    CHECK(shown.dump().find("oldsecret") == std::string::npos);
  }
  // Not ready while the new model loads: Progressing, explained by its condition, not the old record.
  json loading = stored_view(cluster, "loading-not-ready");
  CHECK(loading["state"]["label"] == "Progressing");
  CHECK(loading["explanation"]["source"] == "PredictorReady");
  CHECK(loading["since"] == "2026-11-29T11:50:00Z");

  json failing = stored_view(cluster, "failing-now");
  CHECK(failing["state"]["label"] == "Failed");
  CHECK(failing["state"]["reason"] == "ModelLoadFailed");
  CHECK(failing["explanation"]["source"] == "modelStatus.lastFailureInfo");
  CHECK(failing["modelStatus"]["lastFailureInfo"]["current"] == true);

  // The "model failed to load" problem is the current failure's alone; the history makes none,
  // and the one still loading is not ready for 10 minutes only from 11:50.
  std::vector<problem> now = stored_problems(cluster);
  std::vector<std::string> names;
  for (const problem& p : now) {
    names.push_back(p.name + "/" + p.finding_id);
  }
  CHECK(names == std::vector<std::string>{"failing-now/model-failed-to-load", "loading-not-ready/not-ready"});
}

TEST_CASE("KServe v0.20's Standard-mode canaries beside the split, storage URIs stripped", "[kserve][issue34]") {
  // spec.canary[] (inference_service.go:36-59 at v0.20.0), status.canaryStatuses[] and
  // CanaryPredictorReady written by reconcileCanaryDeployments (components/predictor.go:913-1000):
  // one Deployment and Service per canary, {isvc}-{name}-predictor (constants.go:799-804).
  fixture_cluster cluster = stored_cluster(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: llm, namespace: ml, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  predictor:
    minReplicas: 4
    model: {modelFormat: {name: sklearn}, storageUri: "s3://models/iris/v1"}
  canary:
  - trafficPercent: 20
    predictor:
      name: v2
      model: {modelFormat: {name: sklearn}, storageUri: "https://bucket.s3.amazonaws.com/iris-v2?X-Amz-Signature=canarysig"}
  - trafficPercent: 0
    predictor:
      name: dark
      model: {modelFormat: {name: sklearn}, storageUri: "s3://AKIACANARY:canarysecret@models/iris/v3"}
status:
  deploymentMode: Standard
  servingRuntimeName: kserve-sklearnserver
  canaryStatuses:
  - {name: v2, ready: true, trafficPercent: 20}
  conditions:
  - {type: CanaryPredictorReady, status: "False", reason: CanariesNotReady, lastTransitionTime: "2026-11-29T11:00:00Z"}
  - {type: IngressReady, status: "True", lastTransitionTime: "2026-11-29T09:05:00Z"}
  - {type: PredictorReady, status: "True", lastTransitionTime: "2026-11-29T09:05:00Z"}
  - {type: Ready, status: "True", lastTransitionTime: "2026-11-29T09:05:00Z"}
)");
  json llm = stored_view(cluster, "llm");
  // CanaryPredictorReady is outside Ready's condition set (inference_service_status.go:291-295).
  CHECK(llm["state"]["label"] == "Ready");
  const json& canaries = llm["canaries"];
  REQUIRE(canaries.is_object());
  CHECK(canaries["stablePercent"] == 80);
  REQUIRE(canaries["items"].size() == 2);
  CHECK(canaries["items"][0]["name"] == "v2");
  CHECK(canaries["items"][0]["trafficPercent"] == 20);
  CHECK(canaries["items"][0]["ready"] == true);
  CHECK(canaries["items"][0]["reportedTrafficPercent"] == 20);
  CHECK(canaries["items"][0]["storageUris"] == json::array({{{"uri", "https://bucket.s3.amazonaws.com/iris-v2"},
                                                             {"note", "credentials and query hidden"},
                                                             {"field", "spec.canary[0].predictor.model.storageUri"}}}));
  CHECK(canaries["items"][1]["name"] == "dark");
  CHECK(canaries["items"][1]["ready"].is_null());  // not reported yet
  CHECK(canaries["items"][1]["storageUris"][0]["uri"] == "s3://models/iris/v3");
  CHECK(testing::has_note_containing(llm, "Canary dark is not in status.canaryStatuses yet"));
  CHECK(llm["storageUris"].size() == 3);
  CHECK(testing::link_with(llm, "canary-deployment", "llm-v2-predictor") != nullptr);
  CHECK(testing::link_with(llm, "canary-service", "llm-dark-predictor") != nullptr);
  CHECK(testing::link_with(llm, "deployment", "llm-predictor") != nullptr);
  const std::string text = llm.dump();
  for (const char* secret : {"canarysig", "canarysecret", "AKIACANARY"}) {
    INFO(secret);
    CHECK(text.find(secret) == std::string::npos);
  }
  // The Knative split is unchanged beside it: no canary there.
  CHECK(llm["components"][0]["canary"].is_null());
}

TEST_CASE("a named predictor's objects are linked by the names KServe v0.20 gives them", "[kserve][issue34]") {
  // spec.predictor.name makes them {isvc}-{name}-predictor (buildPredictorResources:
  // components/predictor.go:157-170 at v0.20.0; constants.go:799-804).
  fixture_cluster cluster = stored_cluster(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: promoted, namespace: ml}
spec: {predictor: {name: v2, model: {modelFormat: {name: sklearn}}}}
status: {deploymentMode: Standard}
)");
  json promoted = stored_view(cluster, "promoted");
  CHECK(testing::link_with(promoted, "deployment", "promoted-v2-predictor") != nullptr);
  CHECK(testing::link_with(promoted, "service", "promoted-v2-predictor") != nullptr);
  CHECK(testing::link_with(promoted, "deployment", "promoted-predictor") == nullptr);
  CHECK(promoted["canaries"].is_null());
}

TEST_CASE("a spec that turned invalid while Ready is still True is timed from the first sighting",
          "[kserve][issue34]") {
  // The runtime named in the spec was disabled after the service served for days: KServe writes
  // InvalidSpec with RuntimeDisabled (components/predictor.go:341-348 at v0.20.0) and returns
  // before PropagateStatus, so Ready stays True from before; no lastFailureInfo.time is written.
  fixture_cluster cluster = stored_cluster(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: runtime-switched-off, namespace: ml, creationTimestamp: "2026-11-20T09:00:00Z"}
spec: {predictor: {model: {modelFormat: {name: sklearn}, runtime: retired}}}
status:
  deploymentMode: Knative
  modelStatus:
    transitionStatus: InvalidSpec
    states: {activeModelState: Loaded, targetModelState: FailedToLoad}
    lastFailureInfo: {reason: RuntimeDisabled, message: Specified runtime is disabled}
  conditions:
  - {type: PredictorReady, status: "True", lastTransitionTime: "2026-11-20T09:05:00Z"}
  - {type: Ready, status: "True", lastTransitionTime: "2026-11-20T09:05:00Z"}
)");
  json shown = stored_view(cluster, "runtime-switched-off");
  CHECK(shown["state"]["label"] == "Failed");
  CHECK(shown["state"]["reason"] == "RuntimeDisabled");
  CHECK(shown["since"].is_null());
  CHECK(shown["sinceFrom"] == "first sighting");
  CHECK(testing::has_note_containing(shown, "since is when this daemon first saw it so"));

  section s = kserve::make_section();
  problem_engine engine(s.categories, s.rules);
  auto invalid_at = [&](const char* when) {
    cluster.now = at(when);
    engine.evaluate(cluster.context());
    for (const problem& p : engine.current()) {
      if (p.name == "runtime-switched-off" && p.finding_id == "invalid-spec") {
        return true;
      }
    }
    return false;
  };
  // Not a problem at once (Ready's time is nine days old), but 2 minutes after the first sighting.
  CHECK_FALSE(invalid_at("2026-11-29T12:00:00Z"));
  CHECK_FALSE(invalid_at("2026-11-29T12:01:59Z"));
  CHECK(invalid_at("2026-11-29T12:02:00Z"));

  // The failing-now service of the test above takes its since from the record's own time.
  fixture_cluster timed = stored_cluster(failed_once_then(
      "failing-now", "    transitionStatus: BlockedByFailedLoad\n    states: {targetModelState: FailedToLoad}\n",
      "True"));
  CHECK(stored_view(timed, "failing-now")["since"] == "2026-11-29T10:00:00Z");
  CHECK(stored_view(timed, "failing-now")["sinceFrom"] == "the object");
}

TEST_CASE("a Pending model is not said to have no pod: KServe writes Pending for pods that run but are not ready",
          "[kserve][issue38]") {
  // As KServe v0.16.0 wrote them in the test cluster (tests/integration/kserve_live_test.cpp):
  // a predictor whose one pod runs not ready, and a multi-node predictor whose head and worker
  // pods are both ready while KServe leaves PredictorReady Unknown (getDeploymentCondition joins
  // the two Deployments' reasons, so Progressing's never reads NewReplicaSetAvailable:
  // pkg/apis/serving/v1beta1/inference_service_status.go:434-470). PropagateModelStatus writes
  // Pending for both (:749-767): the pods run, KServe has not found the predictor ready.
  fixture_cluster cluster = stored_cluster(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: unready, namespace: ml, creationTimestamp: "2026-11-29T11:00:00Z"}
spec: {predictor: {model: {modelFormat: {name: sklearn}, storageUri: "gs://models/unready"}}}
status:
  deploymentMode: Standard
  modelStatus:
    transitionStatus: InProgress
    states: {activeModelState: "", targetModelState: Pending}
    copies: {failedCopies: 0, totalCopies: 0}
  conditions:
  - {type: PredictorReady, status: "False", reason: MinimumReplicasUnavailable,
     message: Deployment does not have minimum availability., lastTransitionTime: "2026-11-29T11:00:05Z"}
  - {type: Ready, status: "False", reason: MinimumReplicasUnavailable,
     message: Deployment does not have minimum availability., lastTransitionTime: "2026-11-29T11:00:05Z"}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: llm, namespace: ml, creationTimestamp: "2026-11-29T11:00:00Z"}
spec: {predictor: {model: {modelFormat: {name: huggingface}, storageUri: "pvc://models/llama"}, workerSpec: {pipelineParallelSize: 2}}}
status:
  deploymentMode: Standard
  modelStatus:
    transitionStatus: InProgress
    states: {activeModelState: "", targetModelState: Pending}
    copies: {failedCopies: 0, totalCopies: 1}
  conditions:
  - {type: PredictorReady, status: Unknown, lastTransitionTime: "2026-11-29T11:00:05Z",
     reason: "predictor-container: MinimumReplicasAvailable, worker-container: MinimumReplicasAvailable",
     message: "predictor-container: ReplicaSet \"llm-predictor-6958cd97cc\" has successfully progressed., worker-container: ReplicaSet \"llm-predictor-worker-7f74d7d75d\" has successfully progressed."}
  - {type: Ready, status: Unknown, lastTransitionTime: "2026-11-29T11:00:05Z",
     reason: "predictor-container: MinimumReplicasAvailable, worker-container: MinimumReplicasAvailable",
     message: "predictor-container: ReplicaSet \"llm-predictor-6958cd97cc\" has successfully progressed., worker-container: ReplicaSet \"llm-predictor-worker-7f74d7d75d\" has successfully progressed."}
)");
  for (const char* name : {"unready", "llm"}) {
    INFO(name);
    json shown = stored_view(cluster, name);
    CHECK(shown["state"]["label"] == "Progressing");
    CHECK(shown["modelStatus"]["says"] == "The model is pending: KServe has not found the predictor ready yet.");
    CHECK(testing::link_with(shown, "deployment", std::string(name) + "-predictor") != nullptr);
  }
  // The multi-node predictor's workers have a Deployment of their own (components/predictor.go:472).
  CHECK(testing::link_with(stored_view(cluster, "llm"), "deployment", "llm-predictor-worker") != nullptr);
  CHECK(testing::link_with(stored_view(cluster, "unready"), "deployment", "unready-predictor-worker") == nullptr);
}
