#pragma once
// The `gpu-operator` section: the NVIDIA GPU Operator's Cluster Policies and NVIDIA Drivers
// (nvidia.com), each component the operator deploys with its DaemonSet's rollout, and the GPU
// nodes page (nodes labelled nvidia.com/gpu.present=true).
#include <cstddef>
#include <string_view>

#include "sections/section.hpp"

namespace sextant::gpu_operator {

inline constexpr std::string_view gpu_operator_group = "nvidia.com";
inline const kind_key cluster_policy_kind{"nvidia.com", "ClusterPolicy"};
inline const kind_key nvidia_driver_kind{"nvidia.com", "NVIDIADriver"};
inline const kind_key daemonset_kind{"apps", "DaemonSet"};
inline constexpr std::string_view problems_category = "gpu-operator";

// Node labels the operator, GPU Feature Discovery and the MIG manager write.
inline constexpr std::string_view gpu_present_label = "nvidia.com/gpu.present";
inline constexpr std::string_view mig_config_state_label = "nvidia.com/mig.config.state";

// The GPU nodes page lists at most this many nodes, and says when there are more.
inline constexpr std::size_t gpu_nodes_cap = 500;

section make_section();

object_state policy_state(const cached_object& policy, const view_context& context);
void policy_summary(const cached_object& policy, const view_context& context, json& summary);
void policy_details(const cached_object& policy, const view_context& context, details_view& view);
object_state driver_state(const cached_object& driver, const view_context& context);
void driver_summary(const cached_object& driver, const view_context& context, json& summary);
void driver_details(const cached_object& driver, const view_context& context, details_view& view);
computed_list list_gpu_nodes(const view_context& context);
void extend_node_details(const cached_object& node, const view_context& context, details_view& view);
std::vector<problem_rule> problem_rules();

}  // namespace sextant::gpu_operator
