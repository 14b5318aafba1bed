// Which Workloads are a job's: see job_workloads.hpp.
#include "sections/kueue/job_workloads.hpp"

#include <charconv>

#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {

std::string label_or_annotation(const packed_value& object, std::string_view key, bool annotation_too) {
  std::string value = string_or(object, {"metadata", "labels", key});
  if (value.empty() && annotation_too) {
    value = string_or(object, {"metadata", "annotations", key});
  }
  return value;
}

std::optional<controller_ref> controller_of(const packed_value& object) {
  for (const packed_value& owner : array_or_empty(object, {"metadata", "ownerReferences"})) {
    if (get_bool(owner, {"controller"}).value_or(false)) {
      return controller_ref{string_or(owner, {"kind"}), string_or(owner, {"name"}), string_or(owner, {"uid"})};
    }
  }
  return std::nullopt;
}

// The job's Workloads as Kueue finds them (ensureOneWorkload, pkg/controller/jobframework/
// reconciler.go:979-1020 at v0.19.2). A job naming a prebuilt Workload has that one only: none
// while another object controls it (Kueue ignores it, :989-996) or while it does not exist (Kueue
// never makes it and keeps the job suspended, :1795-1815). Any other job has every Workload labelled with its uid (or
// owned by it): one per group for a LeaderWorkerSet (pkg/controller/jobs/leaderworkerset/
// leaderworkerset_reconciler.go:281-284, 348), the old and new slice of a resized job.
job_workloads workloads_of(const cached_object& job, const view_context& context) {
  job_workloads out;
  out.prebuilt = label_or_annotation(job.body(), prebuilt_workload_label, true);
  if (!out.prebuilt.empty()) {
    out.prebuilt_object = context.store.get(workload_kind, job.namespace_, out.prebuilt);
    if (out.prebuilt_object) {
      out.prebuilt_owner = controller_of(out.prebuilt_object->body());
      out.prebuilt_elsewhere = out.prebuilt_owner && out.prebuilt_owner->uid != job.uid;
      if (!out.prebuilt_elsewhere) {
        out.found.push_back(out.prebuilt_object);
      }
    }
    return out;
  }
  if (job.uid.empty()) {
    return out;
  }
  std::vector<object_ptr> candidates = context.store.with_label(workload_kind, std::string(job_uid_label), job.uid);
  if (candidates.empty()) {
    candidates = context.store.owned_by(workload_kind, job.uid);
  }
  for (const object_ptr& candidate : candidates) {
    if (candidate->namespace_ == job.namespace_) {
      out.found.push_back(candidate);
    }
  }
  return out;
}

// A LeaderWorkerSet group's index: the annotation Kueue writes since v0.17
// (leaderworkerset_reconciler.go:357), else the index in the name it gives every group's Workload
// since v0.11, "leaderworkerset-<name>-<index>-<hash>" (leaderworkerset_webhook.go:243-246,
// jobframework/workload_names.go:76-95), unless that name was cut to fit.
std::optional<std::int64_t> group_index(const cached_object& workload, const cached_object& job) {
  std::string text = string_or(workload.body(), {"metadata", "annotations", group_index_annotation});
  if (text.empty() && job.type.kind == "LeaderWorkerSet") {
    const std::string prefix = "leaderworkerset-" + std::string(job.name) + "-";
    std::string_view name = workload.name;
    constexpr std::size_t hash_length = 5;
    if (name.starts_with(prefix) && name.size() > prefix.size() + hash_length + 1 &&
        name[name.size() - hash_length - 1] == '-') {
      text = std::string(name.substr(prefix.size(), name.size() - prefix.size() - hash_length - 1));
    }
  }
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace sextant::kueue
