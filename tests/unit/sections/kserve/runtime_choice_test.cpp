// KServe's runtime choice replayed: one table row per filter and per sort key of KServe v0.16's
// selection (explicit runtime: not found, disabled, wrong protocol, wrong format; auto-select:
// disabled, multi-model, autoSelect off, format version, protocol and its default, multi-node;
// order: priority, protocol rank, newest, name, namespace before cluster), each with the expected
// winner and the verdict and reason of every other runtime. Objects are written inline.
#include <catch2/catch.hpp>

#include "sections/kserve/kserve_section.hpp"
#include "sections/kserve/runtime_choice.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

std::string runtime(const std::string& kind, const std::string& name, const std::string& created,
                    const std::string& spec) {
  return "apiVersion: serving.kserve.io/v1alpha1\nkind: " + kind + "\nmetadata: {name: " + name +
         (kind == "ServingRuntime" ? ", namespace: ml" : "") + ", creationTimestamp: \"" + created +
         "\"}\nspec: " + spec + "\n---\n";
}
std::string sr(const std::string& name, const std::string& created, const std::string& spec) {
  return runtime("ServingRuntime", name, created, spec);
}
std::string csr(const std::string& name, const std::string& created, const std::string& spec) {
  return runtime("ClusterServingRuntime", name, created, spec);
}
constexpr const char* early = "2026-11-01T10:00:00Z";
constexpr const char* later = "2026-11-02T10:00:00Z";

std::string service(const std::string& predictor, const std::string& status = "{}") {
  return "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: m, namespace: ml}\n"
         "spec: {predictor: " +
         predictor + "}\nstatus: " + status + "\n";
}

// One expected candidate: "verdict Kind/name" and a fragment of its reason.
struct expected_candidate {
  std::string who;
  std::string reason;
};

struct choice_case {
  std::string title;
  std::string objects;  // runtimes and the service
  std::string chosen;   // "Kind/name", or "" for none
  std::vector<expected_candidate> candidates;
  std::string note;  // a fragment of the note, or "" for no note
};

kserve::runtime_choice choose(fixture_cluster& cluster) {
  object_ptr isvc = cluster.get("serving.kserve.io", "InferenceService", "ml", "m");
  REQUIRE(isvc != nullptr);
  return kserve::choose_runtime(isvc->body(), kserve::runtime_lists_for(cluster.context(), "ml"));
}

void check_case(const choice_case& c) {
  INFO(c.title);
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(c.objects);
  testing::mark_complete(cluster);
  kserve::runtime_choice choice = choose(cluster);
  CHECK(choice.told);
  CHECK((choice.chosen ? choice.chosen->kind + "/" + choice.chosen->name : std::string()) == c.chosen);
  REQUIRE(choice.candidates.size() == c.candidates.size());
  for (std::size_t i = 0; i < c.candidates.size(); ++i) {
    const kserve::runtime_candidate& got = choice.candidates[i];
    INFO("candidate " << i << ": " << got.verdict << " " << got.runtime.kind << "/" << got.runtime.name << ": "
                      << got.reason);
    CHECK(got.verdict + " " + got.runtime.kind + "/" + got.runtime.name == c.candidates[i].who);
    CHECK(got.reason.find(c.candidates[i].reason) != std::string::npos);
  }
  if (c.note.empty()) {
    CHECK(choice.note.empty());
  } else {
    INFO("note: " << choice.note);
    CHECK(choice.note.find(c.note) != std::string::npos);
  }
}

const std::string sklearn_auto =
    "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v1, v2]}";
const std::string sklearn_model = "{model: {modelFormat: {name: sklearn}}}";

}  // namespace

TEST_CASE("Runtime choice: KServe's filters, each rejecting with its reason", "[kserve][runtime]") {
  const std::vector<choice_case> cases = {
      {"the only runtime that fits",
       sr("sk", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/sk",
       {{"chosen ServingRuntime/sk", "the only runtime that fits"}},
       ""},
      {"autoSelect off",
       sr("off", later, "{supportedModelFormats: [{name: sklearn, autoSelect: false}]}") +
           sr("on", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/on",
       {{"chosen ServingRuntime/on", "only"}, {"rejected ServingRuntime/off", "auto-select is off for sklearn"}},
       ""},
      {"format not supported: none fits",
       sr("xgb", early, "{supportedModelFormats: [{name: xgboost, autoSelect: true}]}") + service(sklearn_model),
       "",
       {{"rejected ServingRuntime/xgb", "does not support sklearn"}},
       "No runtime found to support"},
      {"format version",
       sr("v0", later, "{supportedModelFormats: [{name: sklearn, version: \"0\", autoSelect: true}]}") +
           sr("v1", early, "{supportedModelFormats: [{name: sklearn, version: \"1\", autoSelect: true}]}") +
           service("{model: {modelFormat: {name: sklearn, version: \"1\"}}}"),
       "ServingRuntime/v1",
       {{"chosen ServingRuntime/v1", "only"}, {"rejected ServingRuntime/v0", "does not support sklearn version 1"}},
       ""},
      {"protocol named by the model",
       sr("v1only", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v1]}") +
           sr("both", early, sklearn_auto) + service("{model: {modelFormat: {name: sklearn}, protocolVersion: v2}}"),
       "ServingRuntime/both",
       {{"chosen ServingRuntime/both", "only"}, {"rejected ServingRuntime/v1only", "protocol v2 not supported"}},
       ""},
      {"the default protocol v1; a runtime listing none takes any",
       sr("v2only", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v2]}") +
           sr("any", early, "{supportedModelFormats: [{name: sklearn, autoSelect: true}]}") + service(sklearn_model),
       "ServingRuntime/any",
       {{"chosen ServingRuntime/any", "only"},
        {"rejected ServingRuntime/v2only", "protocol v1 (the default) not supported"}},
       ""},
      {"disabled",
       sr("off", later, "{disabled: true, supportedModelFormats: [{name: sklearn, autoSelect: true}]}") +
           sr("on", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/on",
       {{"chosen ServingRuntime/on", "only"}, {"rejected ServingRuntime/off", "disabled"}},
       ""},
      {"multi-model runtimes are ModelMesh's",
       sr("mm", later, "{multiModel: true, supportedModelFormats: [{name: sklearn, autoSelect: true}]}") +
           sr("single", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/single",
       {{"chosen ServingRuntime/single", "only"}, {"rejected ServingRuntime/mm", "multi-model"}},
       ""},
      {"multi-node exactly when the predictor has workers",
       sr("single", later, sklearn_auto) +
           sr("multi", early,
              "{supportedModelFormats: [{name: sklearn, autoSelect: true}], workerSpec: {containers: [{name: w, "
              "image: w}]}}") +
           service("{model: {modelFormat: {name: sklearn}}, workerSpec: {size: 2}}"),
       "ServingRuntime/multi",
       {{"chosen ServingRuntime/multi", "only"},
        {"rejected ServingRuntime/single", "not a multi-node runtime, and the predictor has a workerSpec"}},
       ""},
      {"a multi-node runtime for a predictor without workers",
       sr("multi", later,
          "{supportedModelFormats: [{name: sklearn, autoSelect: true}], workerSpec: {containers: [{name: w, image: "
          "w}]}}") +
           sr("single", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/single",
       {{"chosen ServingRuntime/single", "only"},
        {"rejected ServingRuntime/multi", "a multi-node runtime (it has a workerSpec), and the predictor has none"}},
       ""},
  };
  for (const choice_case& c : cases) {
    check_case(c);
  }
}

TEST_CASE("Runtime choice: KServe's order, each loser with the key it lost on", "[kserve][runtime]") {
  const std::vector<choice_case> cases = {
      {"priority, highest first",
       sr("low", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 1}]}") +
           sr("high", early, "{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 2}]}") +
           service(sklearn_model),
       "ServingRuntime/high",
       {{"chosen ServingRuntime/high", "priority 2 for sklearn"},
        {"lost ServingRuntime/low", "priority 1 for sklearn is below high's 2"}},
       ""},
      {"a priority before none",
       sr("none", later, sklearn_auto) +
           sr("some", early, "{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 1}]}") +
           service(sklearn_model),
       "ServingRuntime/some",
       {{"chosen ServingRuntime/some", "priority 1"},
        {"lost ServingRuntime/none", "no priority for sklearn; some has"}},
       ""},
      {"protocol rank: the lowest protocol listed",
       sr("v2", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v2]}") +
           sr("v1v2", early,
              "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [v2, v1]}") +
           service("{model: {modelFormat: {name: sklearn}, protocolVersion: v2}}"),
       "ServingRuntime/v1v2",
       {{"chosen ServingRuntime/v1v2", "first by KServe's order"},
        {"lost ServingRuntime/v2", "its lowest protocol (v2) ranks after v1v2's (v1)"}},
       ""},
      {"protocol rank: a runtime listing none ranks last",
       sr("none", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true}]}") +
           sr("grpc", early,
              "{supportedModelFormats: [{name: sklearn, autoSelect: true}], protocolVersions: [grpc-v2]}") +
           service("{model: {modelFormat: {name: sklearn}, protocolVersion: grpc-v2}}"),
       "ServingRuntime/grpc",
       {{"chosen ServingRuntime/grpc", "first"}, {"lost ServingRuntime/none", "its lowest protocol (none)"}},
       ""},
      {"newest first",
       sr("old", early, sklearn_auto) + sr("new", later, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/new",
       {{"chosen ServingRuntime/new", "first"}, {"lost ServingRuntime/old", "older than new"}},
       ""},
      {"then by name",
       sr("beta", early, sklearn_auto) + sr("alpha", early, sklearn_auto) + service(sklearn_model),
       "ServingRuntime/alpha",
       {{"chosen ServingRuntime/alpha", "first"},
        {"lost ServingRuntime/beta", "as old as alpha, and its name sorts after"}},
       ""},
      {"a namespace runtime always comes first, whatever the priority",
       csr("cluster", later, "{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 9}]}") +
           sr("local", early, "{supportedModelFormats: [{name: sklearn, autoSelect: true, priority: 1}]}") +
           service(sklearn_model),
       "ServingRuntime/local",
       {{"chosen ServingRuntime/local", "priority 1"},
        {"lost ClusterServingRuntime/cluster", "a namespace runtime always comes first"}},
       ""},
      {"the cluster's runtimes when none of the namespace fits",
       sr("local", later, "{disabled: true, supportedModelFormats: [{name: sklearn, autoSelect: true}]}") +
           csr("b-cluster", early, sklearn_auto) + csr("a-cluster", early, sklearn_auto) + service(sklearn_model),
       "ClusterServingRuntime/a-cluster",
       {{"chosen ClusterServingRuntime/a-cluster", "first"},
        {"lost ClusterServingRuntime/b-cluster", "name sorts after"},
        {"rejected ServingRuntime/local", "disabled"}},
       ""},
      {"the old shorthand reads as its format",
       sr("sk", early, sklearn_auto) + service("{sklearn: {storageUri: \"gs://b/m\"}}"),
       "ServingRuntime/sk",
       {{"chosen ServingRuntime/sk", "only"}},
       "old spec.predictor.sklearn shorthand"},
  };
  for (const choice_case& c : cases) {
    check_case(c);
  }
}

TEST_CASE("Runtime choice: a runtime named in the spec", "[kserve][runtime]") {
  const std::vector<choice_case> cases = {
      {"named: auto-select does not matter",
       sr("mine", early, "{supportedModelFormats: [{name: sklearn, autoSelect: false}]}") +
           sr("auto", later, sklearn_auto) + service("{model: {modelFormat: {name: sklearn}, runtime: mine}}"),
       "ServingRuntime/mine",
       {{"chosen ServingRuntime/mine", "named in spec.predictor.model.runtime"}},
       ""},
      {"named and not found",
       sr("auto", later, sklearn_auto) + service("{model: {modelFormat: {name: sklearn}, runtime: gone}}"),
       "",
       {},
       "RuntimeNotRecognized"},
      {"named and disabled",
       sr("off", early, "{disabled: true, supportedModelFormats: [{name: sklearn}]}") +
           service("{model: {modelFormat: {name: sklearn}, runtime: off}}"),
       "",
       {{"rejected ServingRuntime/off", "disabled"}},
       "Specified runtime is disabled"},
      {"named with the wrong format",
       sr("xgb", early, "{supportedModelFormats: [{name: xgboost, autoSelect: true}]}") +
           service("{model: {modelFormat: {name: sklearn}, runtime: xgb}}"),
       "",
       {{"rejected ServingRuntime/xgb", "does not support sklearn"}},
       "Specified runtime does not support specified framework/version"},
      {"named with the wrong protocol",
       sr("v1", early, "{supportedModelFormats: [{name: sklearn}], protocolVersions: [v1]}") +
           service("{model: {modelFormat: {name: sklearn}, protocolVersion: v2, runtime: v1}}"),
       "",
       {{"rejected ServingRuntime/v1", "protocol v2 not supported"}},
       "Specified runtime does not support specified protocol version"},
      {"named: the namespace's runtime before the cluster's of the same name",
       sr("same", early, sklearn_auto) + csr("same", later, sklearn_auto) +
           service("{model: {modelFormat: {name: sklearn}, runtime: same}}"),
       "ServingRuntime/same",
       {{"chosen ServingRuntime/same", "named"},
        {"lost ClusterServingRuntime/same", "a namespace runtime of the same name comes first"}},
       ""},
      {"named: a cluster runtime",
       csr("shared", early, sklearn_auto) + service("{model: {modelFormat: {name: sklearn}, runtime: shared}}"),
       "ClusterServingRuntime/shared",
       {{"chosen ClusterServingRuntime/shared", "named"}},
       ""},
  };
  for (const choice_case& c : cases) {
    check_case(c);
  }
}

TEST_CASE("Runtime choice: the status's recorded runtime beside the replay", "[kserve][runtime]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(sr("old", early, sklearn_auto) + sr("new", later, sklearn_auto) +
                    service(sklearn_model, "{servingRuntimeName: old}"));
  testing::mark_complete(cluster);
  kserve::runtime_choice choice = choose(cluster);
  REQUIRE(choice.chosen);
  CHECK(choice.chosen->name == "new");
  REQUIRE(choice.recorded);
  CHECK(choice.recorded->kind == "ServingRuntime");
  CHECK(choice.recorded->name == "old");
  CHECK(choice.note.find("KServe recorded Serving Runtime old in the status, but by its rules it chooses Serving "
                         "Runtime new now") != std::string::npos);

  json shown = kserve::runtime_choice_json(choice);
  CHECK(shown["chosen"] == json({{"kind", "ServingRuntime"}, {"name", "new"}}));
  CHECK(shown["recorded"] == json({{"kind", "ServingRuntime"}, {"name", "old"}}));
  CHECK(shown["candidates"][1]["verdict"] == "lost");
  CHECK(shown["candidates"][1]["reason"] == "older than new (the newest comes first)");

  fixture_cluster same(at("2026-11-29T12:00:00Z"));
  same.load_yaml(sr("new", later, sklearn_auto) + service(sklearn_model, "{servingRuntimeName: new}"));
  testing::mark_complete(same);
  CHECK(choose(same).note.empty());

  fixture_cluster cluster_recorded(at("2026-11-29T12:00:00Z"));
  cluster_recorded.load_yaml(csr("shared", later, sklearn_auto) +
                             service(sklearn_model, "{clusterServingRuntimeName: shared}"));
  testing::mark_complete(cluster_recorded);
  kserve::runtime_choice cluster_choice = choose(cluster_recorded);
  REQUIRE(cluster_choice.recorded);
  CHECK(cluster_choice.recorded->kind == "ClusterServingRuntime");
  CHECK(cluster_choice.note.empty());
}

TEST_CASE("Runtime choice cannot be told while a runtime list is not read in full", "[kserve][runtime]") {
  for (auto [which, state] : {std::pair{kserve::cluster_serving_runtime_kind, list_completeness::state::not_synced},
                              std::pair{kserve::serving_runtime_kind, list_completeness::state::unreadable}}) {
    fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
    cluster.load_yaml(sr("sk", early, sklearn_auto) + service(sklearn_model, "{servingRuntimeName: sk}"));
    testing::mark_complete(cluster);
    cluster.store.set_completeness(which,
                                   {state, state == list_completeness::state::unreadable ? "forbidden by RBAC" : ""});
    kserve::runtime_choice choice = choose(cluster);
    INFO(which.kind);
    CHECK_FALSE(choice.told);
    CHECK_FALSE(choice.chosen);
    CHECK(choice.candidates.empty());
    CHECK(choice.note.starts_with("cannot be told: "));
    CHECK(choice.note.find(state == list_completeness::state::unreadable ? "forbidden by RBAC" : "not read yet") !=
          std::string::npos);
    REQUIRE(choice.recorded);  // what KServe recorded is still shown
  }
}

TEST_CASE("Runtime choice: no runtime for a custom predictor or in ModelMesh mode", "[kserve][runtime]") {
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(sr("sk", early, sklearn_auto) + service("{containers: [{name: c, image: mine}]}"));
  testing::mark_complete(cluster);
  kserve::runtime_choice custom = choose(cluster);
  CHECK_FALSE(custom.chosen);
  CHECK(custom.note == "The predictor runs its own containers: KServe uses no Serving Runtime.");

  fixture_cluster mesh(at("2026-11-29T12:00:00Z"));
  mesh.load_yaml(sr("sk", early, sklearn_auto) + service(sklearn_model, "{deploymentMode: ModelMesh}"));
  testing::mark_complete(mesh);
  CHECK(choose(mesh).note.find("ModelMesh places the model") != std::string::npos);
}

namespace {

// An Inference Service as KServe v0.17+'s webhook leaves it: the modelFormat annotation written
// (setPredictorModelDefaults: pkg/apis/serving/v1beta1/inference_service_defaults.go:268-276 at
// v0.17.0, :274-283 at v0.20.0; v0.16.0 writes none).
std::string admitted_by_v017(const std::string& format, const std::string& predictor) {
  return "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: m, namespace: ml, "
         "annotations: {modelFormat: " +
         format + "}}\nspec: {predictor: " + predictor + "}\nstatus: {}\n";
}

}  // namespace

TEST_CASE("Runtime choice: a well-known runtime name's protocol, by the KServe version the object tells",
          "[kserve][runtime][issue34]") {
  const std::string v1_only = "{supportedModelFormats: [{name: sklearn}], protocolVersions: [v1]}";
  const std::string named = "{model: {modelFormat: {name: sklearn}, runtime: kserve-mlserver}}";
  // KServe v0.17+ checks only a protocol the spec names and applies kserve-mlserver's v2 after
  // (components/predictor.go:285-321 at v0.17.0, :331-368 at v0.20.0): chosen.
  check_case({"v0.17+ (the modelFormat annotation): no protocol checked",
              sr("kserve-mlserver", early, v1_only) + admitted_by_v017("sklearn", named),
              "ServingRuntime/kserve-mlserver",
              {{"chosen ServingRuntime/kserve-mlserver", "only then give it v2"}},
              ""});
  // A protocol the spec names is checked by every version.
  check_case({"v0.17+ with a protocol in the spec",
              sr("kserve-mlserver", early, v1_only) +
                  admitted_by_v017("sklearn",
                                   "{model: {modelFormat: {name: sklearn}, protocolVersion: v2, runtime: "
                                   "kserve-mlserver}}"),
              "",
              {{"rejected ServingRuntime/kserve-mlserver", "protocol v2 not supported"}},
              "Specified runtime does not support specified protocol version"});
  // Where the versions agree (the runtime serves the default too), the object need not tell.
  check_case({"no annotation, the default served",
              sr("kserve-mlserver", early, "{supportedModelFormats: [{name: sklearn}], protocolVersions: [v1, v2]}") +
                  service(named),
              "ServingRuntime/kserve-mlserver",
              {{"chosen ServingRuntime/kserve-mlserver", "named"}},
              ""});
  check_case(
      {"no annotation, disabled either way",
       sr("kserve-mlserver", early, "{disabled: true, supportedModelFormats: [{name: sklearn}]}") + service(named),
       "",
       {{"rejected ServingRuntime/kserve-mlserver", "disabled"}},
       "Specified runtime is disabled"});

  // Where they differ and the object does not tell: v0.16 applied the default first
  // (isvc.SetRuntimeDefaults() before GetServingRuntime: components/predictor.go:273-300 at
  // v0.16.0) and stops; v0.17+ runs it. Cannot be told.
  fixture_cluster cluster(at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(sr("kserve-mlserver", early, v1_only) + service(named, "{servingRuntimeName: kserve-mlserver}"));
  testing::mark_complete(cluster);
  kserve::runtime_choice choice = choose(cluster);
  CHECK_FALSE(choice.told);
  CHECK_FALSE(choice.chosen);
  INFO(choice.note);
  CHECK(choice.note.starts_with("cannot be told: KServe before v0.17 gives kserve-mlserver its default protocol v2"));
  CHECK(choice.note.find("v0.17 and later check only a protocol the spec names") != std::string::npos);
  CHECK(choice.note.find("modelFormat annotation") != std::string::npos);
  CHECK(choice.recorded);
  json shown = kserve::runtime_choice_json(choice);
  CHECK(shown["chosen"].is_null());
  CHECK(shown["candidates"].empty());
}

TEST_CASE("Runtime choice: the protocol KServe's webhook gives triton, onnx and huggingface",
          "[kserve][runtime][issue34]") {
  // assignTritonRuntime, assignONNXRuntime, assignHuggingFaceRuntime give the old shorthands v2
  // when they name none (pkg/apis/serving/v1beta1/inference_service_defaults.go:291-331 at v0.16.0,
  // :323-363 at v0.20.0), and setPredictorModelDefaults a spec.predictor.model of format triton
  // (:246-252 at v0.16.0, :264-271 at v0.20.0).
  const std::string v2_only_onnx =
      "{supportedModelFormats: [{name: onnx, autoSelect: true}, {name: huggingface, autoSelect: true}, {name: "
      "triton, autoSelect: true}], protocolVersions: [v2, grpc-v2]}";
  const std::string v1_only =
      "{supportedModelFormats: [{name: onnx, autoSelect: true}, {name: huggingface, autoSelect: true}, {name: "
      "triton, autoSelect: true}], protocolVersions: [v1]}";
  for (const char* predictor : {"{onnx: {storageUri: \"gs://b/m.onnx\"}}", "{huggingface: {storageUri: \"hf://o/m\"}}",
                                "{triton: {storageUri: \"gs://b/t\"}}", "{model: {modelFormat: {name: triton}}}"}) {
    check_case({std::string("v2 by the webhook: ") + predictor,
                sr("v2rt", early, v2_only_onnx) + sr("v1rt", later, v1_only) + service(predictor),
                "ServingRuntime/v2rt",
                {{"chosen ServingRuntime/v2rt", "only"},
                 {"rejected ServingRuntime/v1rt", "protocol v2 (the default) not supported"}},
                "KServe's webhook gives"});
  }
  // A protocol the spec names wins over the default.
  check_case({"onnx shorthand naming v1",
              sr("v2rt", early, v2_only_onnx) + sr("v1rt", later, v1_only) +
                  service("{onnx: {storageUri: \"gs://b/m.onnx\", protocolVersion: v1}}"),
              "ServingRuntime/v1rt",
              {{"chosen ServingRuntime/v1rt", "only"}, {"rejected ServingRuntime/v2rt", "protocol v1 not supported"}},
              "old spec.predictor.onnx shorthand"});
  // Only those: a model of format onnx (not the shorthand) keeps v1.
  check_case(
      {"model format onnx: v1",
       sr("v2rt", early, v2_only_onnx) + sr("v1rt", later, v1_only) + service("{model: {modelFormat: {name: onnx}}}"),
       "ServingRuntime/v1rt",
       {{"chosen ServingRuntime/v1rt", "only"},
        {"rejected ServingRuntime/v2rt", "protocol v1 (the default) not supported"}},
       ""});
}
