#pragma once
// The `dra` section (resource.k8s.io): Resource Claims, Claim Templates, Device Classes,
// Resource Slices and the computed Devices page; it also adds claims and the DRA reasons a pod
// waits to Pod details, and the devices a node's drivers publish to Node details.
//
// resource.k8s.io has had four shapes (v1alpha3, v1beta1, v1beta2, v1). Every reader here goes
// by the fields an object carries, never by its apiVersion. CEL selectors are shown as written
// and never evaluated: only the scheduler may say which devices match.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "sections/section.hpp"

namespace sextant::dra {

inline constexpr std::string_view group = "resource.k8s.io";
inline const kind_key claim_kind{"resource.k8s.io", "ResourceClaim"};
inline const kind_key template_kind{"resource.k8s.io", "ResourceClaimTemplate"};
inline const kind_key device_class_kind{"resource.k8s.io", "DeviceClass"};
inline const kind_key slice_kind{"resource.k8s.io", "ResourceSlice"};

// The Devices page and node details read at most this many Resource Slices.
inline constexpr std::size_t slice_cap = 500;

inline constexpr std::string_view problem_category_id = "dra";
// How long a pod waits for a claim before it is a problem.
inline constexpr std::chrono::seconds waiting_threshold{5 * 60};

section make_section();

// --- states ---
object_state claim_state(const cached_object& claim, const view_context& context);
object_state template_state(const cached_object& claim_template, const view_context& context);
object_state device_class_state(const cached_object& device_class, const view_context& context);
object_state slice_state(const cached_object& slice, const view_context& context);

// --- summaries and details ---
void claim_summary(const cached_object& claim, const view_context& context, json& summary);
void claim_details(const cached_object& claim, const view_context& context, details_view& view);
void template_summary(const cached_object& claim_template, const view_context& context, json& summary);
void template_details(const cached_object& claim_template, const view_context& context, details_view& view);
void device_class_summary(const cached_object& device_class, const view_context& context, json& summary);
void device_class_details(const cached_object& device_class, const view_context& context, details_view& view);
void slice_summary(const cached_object& slice, const view_context& context, json& summary);
void slice_details(const cached_object& slice, const view_context& context, details_view& view);
computed_list list_devices(const view_context& context);

// --- what DRA adds to other kinds ---
void extend_pod_details(const cached_object& pod, const view_context& context, details_view& view);
void extend_node_details(const cached_object& node, const view_context& context, details_view& view);
std::vector<finding> evaluate_pod(const cached_object& pod, const view_context& context);

}  // namespace sextant::dra
