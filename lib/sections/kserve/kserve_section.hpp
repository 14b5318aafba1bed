#pragma once
// The `kserve` section (serving.kserve.io): Inference Services, Serving Runtimes, Cluster Serving
// Runtimes, Inference Graphs and Trained Models, explained from KServe's own status, with the
// Serving Runtime KServe chooses for a model replayed by KServe's rules (runtime_choice.hpp).
// Every URI shown goes through util/masking/uris (shown_uris.hpp), every message through
// masking::operator_text.
#include <string_view>

#include "sections/section.hpp"

namespace sextant::kserve {

inline constexpr std::string_view kserve_group = "serving.kserve.io";
inline const kind_key inference_service_kind{"serving.kserve.io", "InferenceService"};
inline const kind_key serving_runtime_kind{"serving.kserve.io", "ServingRuntime"};
inline const kind_key cluster_serving_runtime_kind{"serving.kserve.io", "ClusterServingRuntime"};
inline const kind_key inference_graph_kind{"serving.kserve.io", "InferenceGraph"};
inline const kind_key trained_model_kind{"serving.kserve.io", "TrainedModel"};
inline constexpr std::string_view problems_category = "kserve";

// Annotations KServe reads on an Inference Service (and an Inference Graph).
inline constexpr std::string_view stop_annotation = "serving.kserve.io/stop";
inline constexpr std::string_view deployment_mode_annotation = "serving.kserve.io/deploymentMode";

section make_section();

object_state service_state(const cached_object& service, const view_context& context);
void service_summary(const cached_object& service, const view_context& context, json& summary);
void service_details(const cached_object& service, const view_context& context, details_view& view);
object_state runtime_state(const cached_object& runtime, const view_context& context);
void runtime_summary(const cached_object& runtime, const view_context& context, json& summary);
void runtime_details(const cached_object& runtime, const view_context& context, details_view& view);
object_state graph_state(const cached_object& graph, const view_context& context);
void graph_summary(const cached_object& graph, const view_context& context, json& summary);
void graph_details(const cached_object& graph, const view_context& context, details_view& view);
object_state trained_model_state(const cached_object& model, const view_context& context);
void trained_model_summary(const cached_object& model, const view_context& context, json& summary);
void trained_model_details(const cached_object& model, const view_context& context, details_view& view);
std::vector<problem_rule> problem_rules();

}  // namespace sextant::kserve
