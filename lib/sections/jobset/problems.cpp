// The `jobset` problem category: a failed JobSet, for a day from the moment it failed, with the
// controller's reason and message; a running one with at most one restart left before
// maxRestarts.
#include <chrono>

#include "sections/common/conditions.hpp"
#include "sections/common/objects.hpp"
#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_reading.hpp"
#include "sections/jobset/jobset_section.hpp"

namespace sextant::jobset {
namespace {

using std::chrono::hours;

constexpr hours failed_shown_for{24};
constexpr std::int64_t restarts_left_limit = 1;

// The controller's message as a sentence: it writes none with a full stop.
std::string sentence(const std::string& text) {
  return text.ends_with('.') ? text : text + ".";
}

// Since when it has had this few restarts left: since the last restart (v0.12 dates it on
// RestartingJobSet; else the Jobs of the current attempt were made then), or since it was made
// when it has not restarted. Nullopt (first seen) when nothing on record tells.
std::optional<time_point> near_limit_since(const cached_object& jobset, const jobset_reading& reading,
                                           const view_context& context) {
  if (reading.restarts.total == 0) {
    return created_at(jobset.body());
  }
  if (auto restarted = transition_time(condition_of(jobset.body(), "RestartingJobSet"))) {
    return restarted;
  }
  const std::string attempt = std::to_string(reading.restarts.total);
  std::optional<time_point> earliest;
  for (const object_ptr& job : children_of(jobset, core::job_kind, context).objects) {
    if (string_or(job->body(), {"metadata", "labels", restart_attempt_label}) != attempt) {
      continue;
    }
    if (auto made = created_at(job->body()); made && (!earliest || *made < *earliest)) {
      earliest = made;
    }
  }
  return earliest;
}

std::vector<finding> jobset_findings(const cached_object& jobset, const view_context& context) {
  if (being_deleted(jobset.body())) {
    return {};
  }
  jobset_reading reading = read_jobset(jobset, context);
  if (reading.failed) {
    std::string message = "JobSet failed";
    if (!reading.state.reason.empty()) {
      message += " (" + reading.state.reason + ")";
    }
    message += reading.state.message.empty() ? "." : ": " + sentence(reading.state.message);
    if (reading.failed_job && !reading.failed_job->reason.empty()) {
      message += " Job " + reading.failed_job->name + ": " + reading.failed_job->reason +
                 (reading.failed_job->message.empty() ? "." : " (" + reading.failed_job->message + ").");
    }
    // The moment it failed is the Failed condition's; without one, the first time it was seen failed.
    finding found{"failed", reading.since, std::chrono::seconds{0}, message};
    found.shown_for = failed_shown_for;
    return {found};
  }
  if (reading.completed || reading.suspended || !reading.restarts.left) {
    return {};
  }
  const restart_count& restarts = reading.restarts;
  if (*restarts.left > restarts_left_limit) {
    return {};
  }
  std::string message = *restarts.left == 0 ? "No restart left: the next failed Job fails the JobSet"
                                            : "One restart left: the JobSet fails after one more restart";
  message +=
      " (" + std::to_string(restarts.counted) + " of maxRestarts " + std::to_string(*restarts.max_restarts) + " used).";
  return {finding{"restarts-nearly-exhausted", near_limit_since(jobset, reading, context), std::chrono::seconds{0},
                  message}};
}

}  // namespace

std::vector<problem_rule> problem_rules() {
  return {problem_rule{std::string(problems_category), jobset_kind, jobset_findings}};
}

}  // namespace sextant::jobset
