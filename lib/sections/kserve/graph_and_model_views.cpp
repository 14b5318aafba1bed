// State, summary and details of Inference Graphs and Trained Models, from their conditions,
// with every URL stripped (shown_uris.hpp) and every message masked.
#include <array>

#include "sections/common/conditions.hpp"
#include "sections/common/links.hpp"
#include "sections/common/objects.hpp"
#include "sections/kserve/inference_service_reading.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "sections/kserve/shown_uris.hpp"

namespace sextant::kserve {
namespace {

// A Trained Model's Ready is a living set over these, most basic first.
constexpr std::array<std::string_view, 3> trained_model_conditions = {"InferenceServiceReady", "IsMMSPredictor",
                                                                      "MemoryResourceAvailable"};

}  // namespace

object_state graph_state(const cached_object& graph, const view_context& context) {
  (void)context;
  const packed_value& body = graph.body();
  const packed_value* stopped = condition_of(body, "Stopped");
  const packed_value* ready = condition_of(body, "Ready");
  if (condition_true(stopped) || stop_annotation_set(body)) {
    return {"Stopped", "Stopped", "Stopped: KServe removed the graph's router."};
  }
  if (ready == nullptr) {
    return {"Progressing", "", "KServe has not reported on this graph yet."};
  }
  if (condition_true(ready)) {
    return condition_state("Ready", ready);
  }
  return condition_state(condition_status(ready) == "Unknown" ? "Progressing" : "Not ready", ready);
}

void graph_summary(const cached_object& graph, const view_context& context, json& summary) {
  (void)context;
  summary["url"] = uri_json(string_or(graph.body(), {"status", "url"}));
  summary["deploymentMode"] = read_deployment_mode(graph.body()).mode;
}

void graph_details(const cached_object& graph, const view_context& context, details_view& view) {
  const packed_value& body = graph.body();
  json nodes = json::array();
  for (const auto& [name, node] : object_or_empty(body, {"spec", "nodes"}).items()) {
    json steps = json::array();
    for (const packed_value& step : array_or_empty(node, {"steps"})) {
      const std::string service = string_or(step, {"serviceName"});
      steps.push_back({{"name", or_null(string_or(step, {"name"}))},
                       {"serviceName", or_null(service)},
                       {"serviceUrl", uri_json(string_or(step, {"serviceUrl"}))},
                       {"weight", or_null(get_int(step, {"weight"}))},
                       {"condition", or_null(string_or(step, {"condition"}))},
                       {"dependency", or_null(string_or(step, {"dependency"}))}});
      if (!service.empty()) {
        view.link(context, "step-service", context.api_version(inference_service_kind), "InferenceService",
                  graph.namespace_, service);
      }
    }
    nodes.push_back({{"name", std::string(name)},
                     {"routerType", or_null(string_or(node, {"routerType"}))},
                     {"steps", std::move(steps)}});
  }
  view.blocks["nodes"] = std::move(nodes);
  view.blocks["conditions"] = status_conditions_json(body);
  const deployment_mode mode = read_deployment_mode(body);
  if (mode.mode == "Standard" && condition_true(condition_of(body, "Ready"))) {
    view.note(
        "In Standard mode KServe writes Ready once the router's Deployment reports Available at all, "
        "whatever that condition's status.");
  }
  link_owners(graph, context, view);
}

object_state trained_model_state(const cached_object& model, const view_context& context) {
  (void)context;
  const packed_value& body = model.body();
  const packed_value* ready = condition_of(body, "Ready");
  if (condition_true(ready)) {
    return condition_state("Ready", ready);
  }
  for (std::string_view type : trained_model_conditions) {
    const packed_value* condition = condition_of(body, type);
    if (condition != nullptr && !condition_true(condition)) {
      return condition_state(condition_status(condition) == "Unknown" ? "Progressing" : "Not ready", condition);
    }
  }
  if (ready == nullptr) {
    return {"Progressing", "", "KServe has not reported on this model yet."};
  }
  return condition_state(condition_status(ready) == "Unknown" ? "Progressing" : "Not ready", ready);
}

void trained_model_summary(const cached_object& model, const view_context& context, json& summary) {
  (void)context;
  const packed_value& body = model.body();
  summary["inferenceService"] = or_null(string_or(body, {"spec", "inferenceService"}));
  summary["url"] = uri_json(string_or(body, {"status", "url"}));
}

void trained_model_details(const cached_object& model, const view_context& context, details_view& view) {
  const packed_value& body = model.body();
  view.blocks["model"] = {{"framework", or_null(string_or(body, {"spec", "model", "framework"}))},
                          {"memory", or_null(string_or(body, {"spec", "model", "memory"}))},
                          {"storageUri", uri_json(string_or(body, {"spec", "model", "storageUri"}))}};
  view.blocks["address"] = uri_json(string_or(body, {"status", "address", "url"}));
  view.blocks["conditions"] = status_conditions_json(body);
  const std::string service = string_or(body, {"spec", "inferenceService"});
  if (!service.empty()) {
    view.link(context, "inference-service", context.api_version(inference_service_kind), "InferenceService",
              model.namespace_, service);
  }
  link_owners(model, context, view);
}

}  // namespace sextant::kserve
