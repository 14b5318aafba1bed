#include "sections/jobset/jobset_reading.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "sections/common/conditions.hpp"
#include "sections/common/field_types.hpp"
#include "sections/common/lists.hpp"
#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_section.hpp"

namespace sextant::jobset {
namespace {

// Actions that restart the JobSet without counting toward maxRestarts (v0.6+).
bool ignores_max_restarts(const std::string& action) {
  return action == "RestartJobSetAndIgnoreMaxRestarts";
}

// Counts written by hand can be anything: a sum held at the largest count, never wrapped.
std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::int64_t>::max() : sum;
}

// The sum of a list of counts (replicatedJobsStatus[].jobRestarts), negatives and non-numbers
// read as 0.
std::int64_t sum_of(const packed_value& replicated, const char* field) {
  std::int64_t sum = 0;
  for (const packed_value& count : array_or_empty(replicated, {field})) {
    if (count.is_number()) {
      sum = saturating_add(sum, std::max<std::int64_t>(0, get_int(count, {}).value_or(0)));
    }
  }
  return sum;
}

restart_count read_restarts(const packed_value& body) {
  restart_count out;
  out.total = std::max<std::int64_t>(0, get_int(body, {"status", "restarts"}).value_or(0));
  const packed_value* policy = find(body, {"spec", "failurePolicy"});
  out.has_failure_policy = policy != nullptr && policy->is_object();
  if (out.has_failure_policy) {
    // maxRestarts left out is 0: the first failure fails the JobSet.
    out.max_restarts = std::max<std::int64_t>(0, get_int(*policy, {"maxRestarts"}).value_or(0));
  }
  if (auto written = get_int(body, {"status", "restartsCountTowardsMax"})) {
    out.counted = std::max<std::int64_t>(0, *written);
    out.counted_from = "restartsCountTowardsMax";
  } else {
    bool any_ignoring = false;
    if (out.has_failure_policy) {
      for (const packed_value& rule : array_or_empty(*policy, {"rules"})) {
        any_ignoring = any_ignoring || ignores_max_restarts(string_or(rule, {"action"}));
      }
    }
    // The field is omitted when zero since v0.6, and absent before it, when every restart counted.
    // A rule that ignores the limit exists only with a v0.6+ controller: then absent means zero.
    out.counted = any_ignoring ? 0 : out.total;
    out.counted_from = any_ignoring ? "none" : "every restart";
  }
  // Every restart action checks restartsCountTowardsMax plus the single Jobs' counted restarts
  // against maxRestarts (pkg/controllers/failure_policy.go:226, 350, 548-550 at v0.12.0).
  for (const packed_value& replicated : array_or_empty(body, {"status", "replicatedJobsStatus"})) {
    out.job_restarts = saturating_add(out.job_restarts, sum_of(replicated, "jobRestarts"));
    out.job_restarts_counted =
        saturating_add(out.job_restarts_counted, sum_of(replicated, "jobRestartsCountTowardsMax"));
  }
  out.counted = saturating_add(out.counted, out.job_restarts_counted);
  if (out.max_restarts) {
    out.left = std::max<std::int64_t>(0, *out.max_restarts - out.counted);
  }
  return out;
}

// Child Jobs of an earlier restart attempt, still there: the controller is restarting (any
// version; v0.12+ also says so with RestartingJobSet). Needs the Jobs list.
bool previous_attempt_jobs(const cached_object& jobset, std::int64_t restarts, const view_context& context) {
  if (restarts <= 0) {
    return false;
  }
  for (const object_ptr& job : children_of(jobset, core::job_kind, context).objects) {
    std::string attempt = string_or(job->body(), {"metadata", "labels", restart_attempt_label});
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(attempt.data(), attempt.data() + attempt.size(), value);
    if (error == std::errc() && end == attempt.data() + attempt.size() && !attempt.empty() && value < restarts) {
      return true;
    }
  }
  return false;
}

object_state from_condition(const char* label, const packed_value* condition) {
  return {label, condition_reason(condition), condition_message(condition)};
}

named_job read_named_job(const cached_object& jobset, const std::string& name, const view_context& context) {
  named_job out;
  out.name = name;
  out.job = context.store.get(core::job_kind, jobset.namespace_, name);
  out.exists = exists_json(out.job != nullptr, context, core::job_kind);
  if (out.job) {
    for (const char* type : {"Failed", "FailureTarget"}) {
      const packed_value* condition = condition_of(out.job->body(), type);
      if (condition_true(condition)) {
        out.reason = condition_reason(condition);
        out.message = condition_message(condition);
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::string first_failed_job(const std::string& message) {
  static constexpr std::string_view marker = "(first failed job: ";
  std::size_t at = message.rfind(marker);
  if (at == std::string::npos) {
    return {};
  }
  std::size_t start = at + marker.size();
  std::size_t end = message.find(')', start);
  if (end == std::string::npos) {
    return {};
  }
  return message.substr(start, end - start);
}

children children_of(const cached_object& jobset, const kind_key& type, const view_context& context) {
  children out;
  std::vector<object_ptr> labelled = context.store.with_label(type, std::string(jobset_name_label), jobset.name);
  std::sort(labelled.begin(), labelled.end(),
            [](const object_ptr& a, const object_ptr& b) { return a->name < b->name; });
  for (const object_ptr& object : labelled) {
    if (object->namespace_ != jobset.namespace_) {
      continue;
    }
    // A uid label of another JobSet of the same name (deleted and made again) is not ours.
    std::string uid = string_or(object->body(), {"metadata", "labels", jobset_uid_label});
    if (!uid.empty() && !jobset.uid.empty() && uid != jobset.uid) {
      continue;
    }
    if (out.objects.size() == children_read_cap) {
      out.cut = true;
      break;
    }
    out.objects.push_back(object);
  }
  return out;
}

jobset_reading read_jobset(const cached_object& jobset, const view_context& context) {
  const packed_value& body = jobset.body();
  jobset_reading reading;
  note_wrong_types(body,
                   {{"status.conditions", field_type::array},
                    {"status.restarts", field_type::number},
                    {"status.restartsCountTowardsMax", field_type::number},
                    {"spec.failurePolicy", field_type::object},
                    {"spec.failurePolicy.maxRestarts", field_type::number},
                    {"status.replicatedJobsStatus", field_type::array}},
                   reading.notes);

  reading.restarts = read_restarts(body);
  reading.startup_order = string_or(body, {"spec", "startupPolicy", "startupPolicyOrder"});

  const packed_value* completed = condition_of(body, "Completed");
  const packed_value* failed = condition_of(body, "Failed");
  const packed_value* suspended = condition_of(body, "Suspended");
  const packed_value* restarting = condition_of(body, "RestartingJobSet");
  const packed_value* starting = condition_of(body, "StartupPolicyInProgress");
  const std::string terminal = string_or(body, {"status", "terminalState"});

  reading.completed = condition_true(completed) || (terminal == "Completed" && !condition_true(failed));
  reading.failed = !reading.completed && (condition_true(failed) || terminal == "Failed");
  reading.suspended =
      condition_true(suspended) || (suspended == nullptr && get_bool(body, {"spec", "suspend"}).value_or(false));
  if (restarting != nullptr) {
    // v0.12+ writes the condition and flips it to False once the Jobs are ready again.
    reading.restarting = condition_true(restarting);
    reading.restart_seen_by = reading.restarting ? "RestartingJobSet" : "";
  } else if (previous_attempt_jobs(jobset, reading.restarts.total, context)) {
    reading.restarting = true;
    reading.restart_seen_by = "previous attempt Jobs";
  }
  reading.starting = condition_true(starting);

  if (reading.failed) {
    std::string name = first_failed_job(condition_message(failed));
    if (!name.empty()) {
      reading.failed_job = read_named_job(jobset, name, context);
    }
  } else if (reading.restarting && condition_true(restarting)) {
    std::string name = first_failed_job(condition_message(restarting));
    if (!name.empty()) {
      reading.failed_job = read_named_job(jobset, name, context);
    }
  }

  // The controller's order: a terminal state, then a suspension, a restart, the startup policy.
  if (reading.completed) {
    reading.state = completed != nullptr ? from_condition("Completed", completed)
                                         : object_state{"Completed", "", "status.terminalState is Completed."};
    reading.since = transition_time(completed);
    return reading;
  }
  if (reading.failed) {
    reading.state = failed != nullptr ? from_condition("Failed", failed)
                                      : object_state{"Failed", "", "status.terminalState is Failed."};
    reading.since = transition_time(failed);
    return reading;
  }
  if (reading.suspended) {
    reading.state =
        suspended != nullptr
            ? from_condition("Suspended", suspended)
            : object_state{"Suspended", "", "spec.suspend is true; the controller has not confirmed it yet."};
    reading.since = since_of(suspended, body);
    return reading;
  }
  if (reading.restarting) {
    if (condition_true(restarting)) {
      reading.state = from_condition("Restarting", restarting);
      reading.since = transition_time(restarting);
    } else {
      reading.state = {"Restarting", "",
                       "Restart " + std::to_string(reading.restarts.total) +
                           ": Jobs of an earlier attempt are still being deleted."};
    }
    return reading;
  }
  if (reading.starting) {
    reading.state = from_condition("Starting", starting);
    reading.since = transition_time(starting);
    return reading;
  }
  std::int64_t active = 0;
  std::int64_t ready = 0;
  for (const packed_value& replicated : array_or_empty(body, {"status", "replicatedJobsStatus"})) {
    active += std::max<std::int64_t>(0, get_int(replicated, {"active"}).value_or(0));
    ready += std::max<std::int64_t>(0, get_int(replicated, {"ready"}).value_or(0));
  }
  if (active > 0 || ready > 0) {
    std::int64_t running = std::max(active, ready);
    reading.state = {
        "Running", "",
        std::to_string(running) + " Job" + (running == 1 ? "" : "s") + " active, " + std::to_string(ready) + " ready."};
    return reading;
  }
  reading.state = {"Pending", "", "No Job of it is active yet."};
  reading.since = created_at(body);
  return reading;
}

json restarts_json(const restart_count& restarts) {
  return json{
      {"total", restarts.total},
      {"countingTowardsMax", restarts.counted},
      {"jobRestarts", {{"total", restarts.job_restarts}, {"countingTowardsMax", restarts.job_restarts_counted}}},
      {"countedFrom", restarts.counted_from},
      {"maxRestarts", or_null(restarts.max_restarts)},
      {"left", or_null(restarts.left)},
      {"limit", restarts.has_failure_policy ? json("maxRestarts") : json("none: no failure policy")}};
}

}  // namespace sextant::jobset
