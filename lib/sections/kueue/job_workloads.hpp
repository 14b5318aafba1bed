#pragma once
// Which Workloads are a job's, found the way Kueue finds them: the prebuilt one the job names, or
// every Workload labelled with the job's uid (one per group for a LeaderWorkerSet).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::kueue {

// An object's controller (its ownerReference with controller: true).
struct controller_ref {
  std::string kind;
  std::string name;
  std::string uid;
};
std::optional<controller_ref> controller_of(const packed_value& object);

struct job_workloads {
  std::string prebuilt;                          // the prebuilt Workload the job names, empty when none
  object_ptr prebuilt_object;                    // that Workload, when read
  std::optional<controller_ref> prebuilt_owner;  // its controller, when it has one
  bool prebuilt_elsewhere = false;               // another object controls it: not the job's
  std::vector<object_ptr> found;                 // the job's Workloads
};
job_workloads workloads_of(const cached_object& job, const view_context& context);

// A label of the job, else (when Kueue reads it there too) the annotation of the same key.
std::string label_or_annotation(const packed_value& object, std::string_view key, bool annotation_too);

// The index of the group a Workload belongs to, for a job with one Workload per group (a
// LeaderWorkerSet); nullopt when it tells none.
std::optional<std::int64_t> group_index(const cached_object& workload, const cached_object& job);

}  // namespace sextant::kueue
