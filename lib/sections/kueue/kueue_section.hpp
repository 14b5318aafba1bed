#pragma once
// The `kueue` section: queues, quota against usage, why a Workload waits, waiting lists, and
// the Queue section on the job kinds Kueue manages.
//
// Both v1beta1 and v1beta2 objects are read by their fields, never by their apiVersion: the
// readers in kueue_fields.hpp take whichever spelling an object carries.
#include <array>
#include <string_view>

#include "sections/kueue/visibility.hpp"
#include "sections/section.hpp"

namespace sextant::kueue {

inline constexpr std::string_view kueue_group = "kueue.x-k8s.io";
inline const kind_key cluster_queue_kind{"kueue.x-k8s.io", "ClusterQueue"};
inline const kind_key local_queue_kind{"kueue.x-k8s.io", "LocalQueue"};
inline const kind_key resource_flavor_kind{"kueue.x-k8s.io", "ResourceFlavor"};
inline const kind_key workload_kind{"kueue.x-k8s.io", "Workload"};
inline const kind_key admission_check_kind{"kueue.x-k8s.io", "AdmissionCheck"};
inline const kind_key cohort_kind{"kueue.x-k8s.io", "Cohort"};
inline const kind_key priority_class_kind{"kueue.x-k8s.io", "WorkloadPriorityClass"};

inline constexpr std::string_view queue_name_label = "kueue.x-k8s.io/queue-name";
inline constexpr std::string_view job_uid_label = "kueue.x-k8s.io/job-uid";
inline constexpr std::string_view prebuilt_workload_label = "kueue.x-k8s.io/prebuilt-workload-name";
// On each Workload of a job that has several (a LeaderWorkerSet's groups), since v0.17.
inline constexpr std::string_view group_index_annotation = "kueue.x-k8s.io/component-workload-index";

// Most Workloads read; past it waiting lists say they may be incomplete.
inline constexpr std::size_t workload_cap = 5000;
// Most entries a waiting list shows.
inline constexpr std::size_t waiting_list_limit = 50;

inline constexpr std::string_view queues_category = "kueue-queues";
inline constexpr std::string_view workloads_category = "kueue-workloads";

// The section. Positions in queues come from Kueue's visibility API where the cluster serves it
// (position_from_visibility); tests may give another lookup.
section make_section(position_lookup positions = {});

// --- states (api.md fixes the words) ---
object_state cluster_queue_state(const cached_object& queue, const view_context& context);
object_state local_queue_state(const cached_object& queue, const view_context& context);
object_state admission_check_state(const cached_object& check, const view_context& context);
object_state cohort_state(const cached_object& cohort, const view_context& context);
object_state workload_state(const cached_object& workload, const view_context& context);
// Since when a queue Kueue reports inactive for a fault (not a stop, not a deletion) has been so:
// its Active condition's transition, when that can be trusted to be the fault's; nullopt (the
// problem engine's first sighting) when the spec was edited since, as a lifted stop keeps the
// time the stop began.
std::optional<time_point> queue_fault_since(const cached_object& queue);
// When a queue last became Active (its Active=True transition); nullopt while it is not.
std::optional<time_point> queue_active_since(const cached_object& queue);
// The Cohort chain from `cohort` upward when it loops ("a", "b", "c", "b"), else empty. Only the
// Cohorts read are followed, so a cycle found is certain; one not found may be among those unread.
std::vector<std::string> cohort_loop(const std::string& cohort, const view_context& context);

// --- details ---
void cluster_queue_summary(const cached_object& queue, const view_context& context, json& summary);
void cluster_queue_details(const cached_object& queue, const view_context& context, details_view& view,
                           const position_lookup& positions);
void local_queue_summary(const cached_object& queue, const view_context& context, json& summary);
void local_queue_details(const cached_object& queue, const view_context& context, details_view& view,
                         const position_lookup& positions);
void cohort_details(const cached_object& cohort, const view_context& context, details_view& view);
void workload_summary(const cached_object& workload, const view_context& context, json& summary);
void workload_details(const cached_object& workload, const view_context& context, details_view& view);
void resource_flavor_details(const cached_object& flavor, const view_context& context, details_view& view);
void admission_check_details(const cached_object& check, const view_context& context, details_view& view);
void priority_class_summary(const cached_object& priority_class, const view_context& context, json& summary);

// The Cluster Queue's quota against usage: one row per flavor and resource.
json quota_table(const cached_object& queue, const view_context& context);

// --- how Workloads are cached ---
ingest_profile workload_profile();

// --- the Queue section on jobs ---
struct job_resource {
  std::string_view id;  // the route segment: "pytorchjobs"
  kind_key type;
};
const std::vector<job_resource>& job_resources();
// The block for one job, or null when the job has no queue label and no Workload exists.
json queue_block(const cached_object& job, const view_context& context);
route_answer queue_route(std::span<const std::string> rest, const view_context& context);
// The Queue route shows one job's queue: a caller needs `get` on that job.
std::optional<access_check> queue_route_permission(std::span<const std::string> rest);

// --- problems ---
std::vector<problem_rule> problem_rules();

}  // namespace sextant::kueue
