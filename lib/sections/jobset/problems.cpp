// The `jobset` problem category: a failed JobSet, for a day from the moment it failed, with the
// controller's reason and message; a running one with at most one restart left before
// maxRestarts.
#include <chrono>

#include "sections/common/conditions.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/words.hpp"
#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_reading.hpp"
#include "sections/jobset/jobset_section.hpp"

namespace sextant::jobset {
namespace {

using std::chrono::hours;

constexpr hours failed_shown_for{24};
constexpr std::int64_t restarts_left_limit = 1;

// Since when it has run with this few restarts left: from when the current attempt's Jobs began
// running (their earliest status.startTime), or, once a Job restarted alone counted
// (RestartJob), from when the latest such Job was made again. Without start times, the last global
// restart's record: RestartingJobSet (v0.12), else when the attempt's Jobs were made. Nullopt
// (first seen) when nothing on record tells: never the JobSet's creation, which may be hours
// before it ran (queued by Kueue, say).
std::optional<time_point> near_limit_since(const cached_object& jobset, const jobset_reading& reading,
                                           const view_context& context) {
  const std::string attempt = std::to_string(reading.restarts.total);
  std::optional<time_point> started;
  std::optional<time_point> made;
  std::optional<time_point> restarted_alone;
  auto keep_earliest = [](std::optional<time_point>& into, std::optional<time_point> at) {
    if (at && (!into || *at < *into)) {
      into = at;
    }
  };
  for (const object_ptr& job : children_of(jobset, core::job_kind, context).objects) {
    const packed_value& body = job->body();
    if (string_or(body, {"metadata", "labels", restart_attempt_label}) != attempt) {
      continue;
    }
    keep_earliest(started, parse_rfc3339(string_or(body, {"status", "startTime"})));
    keep_earliest(made, created_at(body));
    std::string alone = string_or(body, {"metadata", "labels", job_restart_attempt_label});
    if (!alone.empty() && alone != "0") {
      restarted_alone = later_of(restarted_alone, created_at(body));
    }
  }
  std::optional<time_point> since = started;
  if (!since && reading.restarts.total > 0) {
    since = transition_time(condition_of(jobset.body(), "RestartingJobSet"));
    since = since ? since : made;
  }
  if (reading.restarts.job_restarts_counted > 0) {
    since = later_of(since, restarted_alone);
  }
  return since;
}

std::vector<finding> jobset_findings(const cached_object& jobset, const view_context& context) {
  if (being_deleted(jobset.body())) {
    return {};
  }
  jobset_reading reading = read_jobset(jobset, context);
  if (reading.failed) {
    std::string message = problem_message("JobSet failed", reading.state);
    if (reading.failed_job && !reading.failed_job->reason.empty()) {
      message += " Job " + reading.failed_job->name + ": " + reading.failed_job->reason +
                 (reading.failed_job->message.empty() ? "." : " (" + reading.failed_job->message + ").");
    }
    // The moment it failed is the Failed condition's; without one, the first time it was seen failed.
    finding found{"failed", reading.since, std::chrono::seconds{0}, message};
    found.shown_for = failed_shown_for;
    return {found};
  }
  // "A running one": a JobSet still Pending (no Job active yet) has used nothing up.
  if (reading.completed || reading.suspended || reading.state.label == "Pending" || !reading.restarts.left) {
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
