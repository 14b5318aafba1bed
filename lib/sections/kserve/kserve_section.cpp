#include "sections/kserve/kserve_section.hpp"

namespace sextant::kserve {

section make_section() {
  section s;
  s.id = "kserve";
  s.title = "KServe";
  s.group = std::string(kserve_group);
  s.version_preference = {"v1beta1", "v1alpha1"};

  resource_def services =
      kind_resource("inferenceservices", "Inference Services", inference_service_kind, scope::namespaced);
  services.state = service_state;
  services.summarize = service_summary;
  services.details = service_details;
  // An Inference Service can hold whole pod specs: keep what the views and the runtime choice read.
  // The old shorthand predictors are kept whole: their key is the model format. v0.20's
  // Standard-mode canaries (spec.canary) keep their names, shares and storage URIs.
  services.profile = ingest_profile::keeping({"spec.predictor.name",
                                              "spec.predictor.model.modelFormat",
                                              "spec.predictor.model.runtime",
                                              "spec.predictor.model.protocolVersion",
                                              "spec.predictor.model.storageUri",
                                              "spec.predictor.sklearn",
                                              "spec.predictor.tensorflow",
                                              "spec.predictor.xgboost",
                                              "spec.predictor.pytorch",
                                              "spec.predictor.triton",
                                              "spec.predictor.onnx",
                                              "spec.predictor.huggingface",
                                              "spec.predictor.pmml",
                                              "spec.predictor.lightgbm",
                                              "spec.predictor.paddle",
                                              "spec.predictor.workerSpec",
                                              "spec.predictor.containers.name",
                                              "spec.predictor.storageUris",
                                              "spec.predictor.canaryTrafficPercent",
                                              "spec.predictor.logger.url",
                                              "spec.transformer.containers.name",
                                              "spec.transformer.canaryTrafficPercent",
                                              "spec.transformer.logger.url",
                                              "spec.explainer.containers.name",
                                              "spec.explainer.art.type",
                                              "spec.explainer.art.storageUri",
                                              "spec.explainer.storageUris",
                                              "spec.explainer.canaryTrafficPercent",
                                              "spec.explainer.logger.url",
                                              "spec.canary.trafficPercent",
                                              "spec.canary.predictor.name",
                                              "spec.canary.predictor.model.storageUri",
                                              "spec.canary.predictor.sklearn.storageUri",
                                              "spec.canary.predictor.tensorflow.storageUri",
                                              "spec.canary.predictor.xgboost.storageUri",
                                              "spec.canary.predictor.pytorch.storageUri",
                                              "spec.canary.predictor.triton.storageUri",
                                              "spec.canary.predictor.onnx.storageUri",
                                              "spec.canary.predictor.huggingface.storageUri",
                                              "spec.canary.predictor.pmml.storageUri",
                                              "spec.canary.predictor.lightgbm.storageUri",
                                              "spec.canary.predictor.paddle.storageUri",
                                              "spec.canary.predictor.storageUris",
                                              "spec.canary.predictor.logger.url",
                                              "status"});
  // The runtime KServe would choose, linked and explained.
  services.joins = {serving_runtime_kind, cluster_serving_runtime_kind};
  s.resources.push_back(std::move(services));

  // A runtime is read for what it offers to KServe's choice, not for its pod spec.
  auto runtime_resource = [](std::string plural, std::string title, const kind_key& type, scope where) {
    resource_def runtimes = kind_resource(std::move(plural), std::move(title), type, where);
    runtimes.state = runtime_state;
    runtimes.summarize = runtime_summary;
    runtimes.details = runtime_details;
    runtimes.profile = ingest_profile::keeping({"spec.supportedModelFormats", "spec.protocolVersions", "spec.disabled",
                                                "spec.multiModel", "spec.workerSpec", "spec.containers.name",
                                                "spec.containers.image"});
    runtimes.joins = {inference_service_kind};  // the services that run on it, linked
    return runtimes;
  };
  s.resources.push_back(
      runtime_resource("servingruntimes", "Serving Runtimes", serving_runtime_kind, scope::namespaced));
  s.resources.push_back(runtime_resource("clusterservingruntimes", "Cluster Serving Runtimes",
                                         cluster_serving_runtime_kind, scope::cluster));

  resource_def graphs = kind_resource("inferencegraphs", "Inference Graphs", inference_graph_kind, scope::namespaced);
  graphs.state = graph_state;
  graphs.summarize = graph_summary;
  graphs.details = graph_details;
  s.resources.push_back(std::move(graphs));

  resource_def models = kind_resource("trainedmodels", "Trained Models", trained_model_kind, scope::namespaced);
  models.state = trained_model_state;
  models.summarize = trained_model_summary;
  models.details = trained_model_details;
  s.resources.push_back(std::move(models));

  s.categories = {problem_category{std::string(problems_category), "KServe", true}};
  s.rules = problem_rules();
  return s;
}

}  // namespace sextant::kserve
