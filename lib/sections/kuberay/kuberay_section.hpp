#pragma once
// The `kuberay` section: Ray Clusters, Ray Jobs and Ray Services (ray.io), from the operator's
// own status: the condition-based status (v1.3+) and the older state fields both.
#include <cstdint>
#include <string_view>

#include "sections/section.hpp"

namespace sextant::kuberay {

inline constexpr std::string_view ray_group = "ray.io";
inline const kind_key raycluster_kind{"ray.io", "RayCluster"};
inline const kind_key rayjob_kind{"ray.io", "RayJob"};
inline const kind_key rayservice_kind{"ray.io", "RayService"};
inline const kind_key service_kind{"", "Service"};
inline constexpr std::string_view problems_category = "kuberay";

// Labels the operator puts on every Ray pod.
inline constexpr std::string_view cluster_label = "ray.io/cluster";
inline constexpr std::string_view node_type_label = "ray.io/node-type";
inline constexpr std::string_view group_label = "ray.io/group";

// maxReplicas' default: no upper limit.
inline constexpr std::int64_t no_upper_limit = 2147483647;

section make_section();

object_state cluster_state(const cached_object& cluster, const view_context& context);
void cluster_summary(const cached_object& cluster, const view_context& context, json& summary);
void cluster_details(const cached_object& cluster, const view_context& context, details_view& view);
object_state job_state(const cached_object& job, const view_context& context);
void job_summary(const cached_object& job, const view_context& context, json& summary);
void job_details(const cached_object& job, const view_context& context, details_view& view);
object_state service_state(const cached_object& service, const view_context& context);
void service_summary(const cached_object& service, const view_context& context, json& summary);
void service_details(const cached_object& service, const view_context& context, details_view& view);
std::vector<problem_rule> problem_rules();
// The logs routes (kuberay_logs.cpp): ?role=head|workers, ?role=submitter.
stream_answer cluster_logs(const stream_request& request, const view_context& context);
stream_answer job_logs(const stream_request& request, const view_context& context);

}  // namespace sextant::kuberay
