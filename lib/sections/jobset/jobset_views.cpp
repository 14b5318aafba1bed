// A JobSet's state, summary and details, all rendered from one reading (read_jobset).
#include <algorithm>

#include "sections/common/conditions.hpp"
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/read_once.hpp"
#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_reading.hpp"
#include "sections/jobset/jobset_section.hpp"

namespace sextant::jobset {
namespace {

json failed_job_json(const named_job& job, const view_context& context, std::string_view namespace_) {
  json out = job.job ? link_json(context, *job.job) : link_to(context, core::job_kind, namespace_, job.name);
  out["exists"] = job.exists;
  out["reason"] = or_null(job.reason);
  out["message"] = or_null(job.message);
  return out;
}

std::string failed_job_note(const named_job& job, const view_context& context) {
  if (job.exists == json(false)) {
    return "The Job the controller names, " + job.name + ", no longer exists.";
  }
  if (job.exists.is_string()) {
    return "Whether the Job the controller names, " + job.name +
           ", still exists cannot be told: " + incomplete_reason(context, core::job_kind) + ".";
  }
  if (job.reason.empty()) {
    return "The Job " + job.name + " has no Failed condition (yet).";
  }
  return {};
}

// spec.replicatedJobs with their status counts (by name).
json replicated_jobs_json(const packed_value& body) {
  json out = json::array();
  const packed_value& statuses = array_or_empty(body, {"status", "replicatedJobsStatus"});
  for (const packed_value& replicated : array_or_empty(body, {"spec", "replicatedJobs"})) {
    std::string name = string_or(replicated, {"name"});
    json row = {{"name", name}, {"replicas", get_int(replicated, {"replicas"}).value_or(1)}};
    const packed_value* status = nullptr;
    for (const packed_value& candidate : statuses) {
      if (string_or(candidate, {"name"}) == name) {
        status = &candidate;
      }
    }
    for (const char* count : {"ready", "active", "succeeded", "failed", "suspended"}) {
      row[count] = status != nullptr ? or_null(get_int(*status, {count})) : json(nullptr);
    }
    out.push_back(std::move(row));
  }
  return out;
}

// A list block of the JobSet's Jobs or pods: at most `children_shown_cap` rows, and whether the
// list is whole.
json list_block(const children& found, json rows, const view_context& context, const kind_key& type,
                std::string_view noun, details_view& view) {
  std::string reason = found.cut ? cut_reason(children_read_cap, noun) : incomplete_reason(context, type);
  if (!reason.empty()) {
    view.note(may_be_incomplete("The list of " + std::string(noun), reason));
  }
  json block = {{"total", found.objects.size()},
                {"shown", std::min(rows.size(), children_shown_cap)},
                {"incomplete", !reason.empty()},
                {"incompleteReason", or_null(reason)}};
  if (rows.size() > children_shown_cap) {
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(children_shown_cap), rows.end());
  }
  block["items"] = std::move(rows);
  return block;
}

json jobs_block(const cached_object& jobset, const view_context& context, details_view& view) {
  children jobs = children_of(jobset, core::job_kind, context);
  json rows = json::array();
  for (const object_ptr& job : jobs.objects) {
    json row = link_json(context, *job);
    object_state state = core::job_state(*job, context);
    row["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
    row["replicatedJob"] = or_null(string_or(job->body(), {"metadata", "labels", replicated_job_label}));
    row["restartAttempt"] = or_null(string_or(job->body(), {"metadata", "labels", restart_attempt_label}));
    rows.push_back(std::move(row));
  }
  return list_block(jobs, std::move(rows), context, core::job_kind, "Jobs", view);
}

json pods_block(const cached_object& jobset, const view_context& context, details_view& view) {
  children pods = children_of(jobset, core::pod_kind, context);
  // Pods that are not running first: they are the ones to look at.
  std::stable_partition(pods.objects.begin(), pods.objects.end(), [](const object_ptr& pod) {
    return string_or(pod->body(), {"status", "phase"}) != "Running";
  });
  json rows = json::array();
  for (const object_ptr& pod : pods.objects) {
    json row = link_json(context, *pod);
    object_state state = core::pod_state(*pod, context);
    row["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
    row["phase"] = or_null(string_or(pod->body(), {"status", "phase"}));
    row["node"] = or_null(string_or(pod->body(), {"spec", "nodeName"}));
    row["job"] = or_null(string_or(pod->body(), {"metadata", "labels", "batch.kubernetes.io/job-name"}));
    rows.push_back(std::move(row));
  }
  return list_block(pods, std::move(rows), context, core::pod_kind, "pods", view);
}

}  // namespace

object_state jobset_state(const cached_object& jobset, const view_context& context) {
  return read_once(jobset, context, read_jobset)->state;
}

void jobset_summary(const cached_object& jobset, const view_context& context, json& summary) {
  const auto reading = read_once(jobset, context, read_jobset);
  summary["restarts"] = restarts_json(reading->restarts);
}

void jobset_details(const cached_object& jobset, const view_context& context, details_view& view) {
  const packed_value& body = jobset.body();
  const auto reading = read_once(jobset, context, read_jobset);
  add_notes(reading->notes, view);
  view.blocks["since"] = time_or_null(reading->since);
  view.blocks["restarting"] = reading->restarting ? json{{"seenBy", reading->restart_seen_by}} : json(nullptr);
  view.blocks["startupPolicy"] = or_null(reading->startup_order);
  view.blocks["failedJob"] = nullptr;
  if (reading->failed_job) {
    view.blocks["failedJob"] = failed_job_json(*reading->failed_job, context, jobset.namespace_);
    view.link(context, "failed-job", context.api_version(core::job_kind), "Job", jobset.namespace_,
              reading->failed_job->name);
    if (std::string note = failed_job_note(*reading->failed_job, context); !note.empty()) {
      view.note(note);
    }
  } else if (reading->failed) {
    view.note("The controller's message names no failed Job.");
  }
  if (!reading->restarts.has_failure_policy) {
    view.note("No failure policy: the first failed Job fails the JobSet, and there is no restart limit.");
  }
  view.blocks["replicatedJobs"] = replicated_jobs_json(body);
  view.blocks["conditions"] = status_conditions_json(body);
  view.blocks["jobs"] = jobs_block(jobset, context, view);
  view.blocks["pods"] = pods_block(jobset, context, view);
  for (const json& job : view.blocks["jobs"]["items"]) {
    view.link(context, "job", job["apiVersion"].get<std::string>(), "Job", jobset.namespace_,
              job["name"].get<std::string>());
  }
  link_owners(jobset, context, view);
}

}  // namespace sextant::jobset
