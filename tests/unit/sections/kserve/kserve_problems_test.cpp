// The `kserve` problems at and past their thresholds: a model that failed to load at once, an
// invalid spec after 2 minutes, not ready (or still progressing) after 10 minutes, with the model
// status in the message; none for stopped, ready or deleting services. No message holds a
// credential or a query.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

std::vector<problem> evaluate(const std::string& when, const std::string& extra = "") {
  fixture_cluster cluster(at(when.c_str()));
  for (const char* file : {"inferenceservices.yaml", "runtimes.yaml"}) {
    cluster.load_file(testing::fixtures_dir() / "kserve" / file);
  }
  if (!extra.empty()) {
    cluster.load_yaml(extra);
  }
  testing::mark_complete(cluster);
  section s = kserve::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(cluster.context());
  return engine.current();
}

}  // namespace

TEST_CASE("KServe problems: a model that failed to load, at once", "[kserve][problems]") {
  // lastFailureInfo.time is 11:05.
  std::vector<problem> now = evaluate("2026-11-29T11:05:00Z");
  const problem* failed =
      testing::problem_of(now, kserve::inference_service_kind, "failed-load", "model-failed-to-load");
  REQUIRE(failed != nullptr);
  CHECK(failed->message ==
        "The model failed to load (ModelLoadFailed): failed to download s3://models/iris: AccessDenied (credentials "
        "and query hidden).");
  CHECK(failed->message.find("loadsecret") == std::string::npos);
  CHECK(failed->category == "kserve");
}

TEST_CASE("KServe problems: an invalid spec after 2 minutes", "[kserve][problems]") {
  // runtime-not-recognized: Ready since 11:59, no failure time.
  std::vector<problem> early = evaluate("2026-11-29T12:00:59Z");
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "runtime-not-recognized") == nullptr);
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "runtime-disabled", "invalid-spec") != nullptr);
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "no-supporting-runtime", "invalid-spec") != nullptr);
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "worker-spec-not-set", "invalid-spec") != nullptr);
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "gpu-allocation", "invalid-spec") != nullptr);
  CHECK(testing::problem_of(early, kserve::inference_service_kind, "invalid-predictor-spec", "invalid-spec") !=
        nullptr);
  std::vector<problem> later = evaluate("2026-11-29T12:01:00Z");
  const problem* invalid =
      testing::problem_of(later, kserve::inference_service_kind, "runtime-not-recognized", "invalid-spec");
  REQUIRE(invalid != nullptr);
  CHECK(invalid->message ==
        "KServe cannot run the spec (RuntimeNotRecognized): Waiting for runtime to become available.");
}

TEST_CASE("KServe problems: not ready for 10 minutes, with what the model status says", "[kserve][problems]") {
  // loading-large: Ready False since 11:30, the model still loading.
  CHECK(testing::problem_of(evaluate("2026-11-29T11:39:59Z"), kserve::inference_service_kind, "loading-large") ==
        nullptr);
  std::vector<problem> later = evaluate("2026-11-29T11:40:00Z");
  const problem* loading = testing::problem_of(later, kserve::inference_service_kind, "loading-large", "not-ready");
  REQUIRE(loading != nullptr);
  CHECK(loading->message.find("Inference Service not ready (RevisionMissing)") == 0);
  CHECK(loading->message.find("the storage initializer may still be downloading it") != std::string::npos);

  std::vector<problem> noon = evaluate("2026-11-29T12:00:00Z");
  CHECK(testing::problem_of(noon, kserve::inference_service_kind, "runtime-unhealthy", "not-ready") !=
        nullptr);  // since 11:40
  CHECK(testing::problem_of(noon, kserve::inference_service_kind, "ingress-not-ready", "not-ready") != nullptr);
  CHECK(testing::problem_of(noon, kserve::inference_service_kind, "default-mode") ==
        nullptr);  // progressing since 11:58
  // Ready, stopped (by annotation or condition): none.
  for (const char* name : {"ready-knative", "canary", "standard-legacy", "stopped-annotation", "stopped-condition",
                           "custom-container", "recorded-differs"}) {
    INFO(name);
    CHECK(testing::problem_of(noon, kserve::inference_service_kind, name) == nullptr);
  }
  for (const problem& p : noon) {
    CHECK(p.message.find("pass") == std::string::npos);
  }
}

TEST_CASE("KServe problems: none for a service being deleted", "[kserve][problems]") {
  std::vector<problem> problems = evaluate("2026-11-29T12:00:00Z", R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: going, namespace: ml, deletionTimestamp: "2026-11-29T11:00:00Z", finalizers: [inferenceservice.finalizers]}
spec: {predictor: {model: {modelFormat: {name: sklearn}}}}
status:
  modelStatus: {transitionStatus: BlockedByFailedLoad, lastFailureInfo: {reason: ModelLoadFailed, message: gone}}
)");
  CHECK(testing::problem_of(problems, kserve::inference_service_kind, "going") == nullptr);
  CHECK(testing::problem_of(problems, kserve::inference_service_kind, "failed-load") != nullptr);
}
