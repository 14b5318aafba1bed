#pragma once
// The `jobset` section: JobSets (jobset.x-k8s.io), their restarts against the failure policy's
// limit, why they failed, and their Jobs and pods.
#include <cstddef>
#include <string_view>

#include "sections/section.hpp"

namespace sextant::jobset {

inline constexpr std::string_view jobset_group = "jobset.x-k8s.io";
inline const kind_key jobset_kind{"jobset.x-k8s.io", "JobSet"};
inline constexpr std::string_view problems_category = "jobset";

// The labels the controller puts on each child Job and its pods.
inline constexpr std::string_view jobset_name_label = "jobset.sigs.k8s.io/jobset-name";
inline constexpr std::string_view jobset_uid_label = "jobset.sigs.k8s.io/jobset-uid";
inline constexpr std::string_view replicated_job_label = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr std::string_view restart_attempt_label = "jobset.sigs.k8s.io/restart-attempt";
// On a Job restarted alone (RestartJob actions, v0.12+): how many times its index was.
inline constexpr std::string_view job_restart_attempt_label = "jobset.sigs.k8s.io/job-restart-attempt";

// The details read at most this many Jobs and pods of one JobSet, and show at most `shown_cap`.
inline constexpr std::size_t children_read_cap = 500;
inline constexpr std::size_t children_shown_cap = 50;

section make_section();

object_state jobset_state(const cached_object& jobset, const view_context& context);
void jobset_summary(const cached_object& jobset, const view_context& context, json& summary);
void jobset_details(const cached_object& jobset, const view_context& context, details_view& view);
std::vector<problem_rule> problem_rules();

}  // namespace sextant::jobset
