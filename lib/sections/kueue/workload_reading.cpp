#include "sections/kueue/workload_reading.hpp"

#include <map>
#include <tuple>

#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Reasons Kueue writes on QuotaReserved=False for a Workload it cannot admit as configured:
// the legacy `Inadmissible`, and the granular `Misconfigured`/`Suspended` of the
// UnadmittedWorkloadsObservability gate.
bool inadmissible_reason(std::string_view reason) {
  return reason == "Inadmissible" || reason == "Misconfigured" || reason == "Suspended";
}

std::optional<deactivation> find_deactivation(const packed_value& body) {
  const bool inactive = get_bool(body, {"spec", "active"}) == std::optional<bool>(false);
  // Kueue decided to deactivate but has not applied it yet.
  if (const packed_value* target = condition_of(body, "DeactivationTarget"); condition_true(target)) {
    deactivation found;
    found.by_kueue = true;
    found.in_progress = !inactive;
    found.cause = string_or(*target, {"reason"});
    found.reason = found.cause;
    found.message = string_or(*target, {"message"});
    found.since = transition_time(target);
    return found;
  }
  if (!inactive) {
    return std::nullopt;
  }
  // The eviction that applied the deactivation names its cause; Requeued=False copies it.
  for (const char* type : {"Evicted", "Requeued"}) {
    const packed_value* condition = condition_of(body, type);
    if (condition == nullptr || (std::string_view(type) == "Evicted" && !condition_true(condition))) {
      continue;
    }
    if (auto found = deactivation_from_reason(string_or(*condition, {"reason"}))) {
      found->message = string_or(*condition, {"message"});
      found->since = transition_time(condition);
      return found;
    }
  }
  // Never admitted, so never evicted: nothing names Kueue, so a person set spec.active.
  deactivation by_person;
  by_person.reason = "Deactivated";
  if (const packed_value* reserved = condition_of(body, "QuotaReserved"); reserved != nullptr) {
    by_person.since = transition_time(reserved);
  }
  return by_person;
}

std::string check_list(const packed_value& body) {
  std::string out;
  for (const packed_value& check : array_or_empty(body, {"status", "admissionChecks"})) {
    std::string state = string_or(check, {"state"}, "Pending");
    if (state == "Ready") {
      continue;
    }
    if (!out.empty()) {
      out += "; ";
    }
    out += string_or(check, {"name"}) + " (" + state;
    std::string message = string_or(check, {"message"});
    if (!message.empty()) {
      out += ": " + message;
    }
    out += ")";
  }
  return out;
}

}  // namespace

std::optional<deactivation> deactivation_from_reason(const std::string& reason) {
  for (std::string_view prefix :
       {std::string_view("DeactivatedDueTo"), std::string_view("InactiveWorkload"), std::string_view("Deactivated")}) {
    if (!starts_with(reason, prefix)) {
      continue;
    }
    deactivation found;
    found.reason = reason;
    found.cause = reason.substr(prefix.size());
    found.by_kueue = !found.cause.empty();
    return found;
  }
  return std::nullopt;
}

std::string deactivation_cause_words(const std::string& cause) {
  if (cause == "RequeuingLimitExceeded") {
    return "it was requeued more times than the requeuing limit allows";
  }
  if (cause == "MaximumExecutionTimeExceeded") {
    return "it ran past its maximum execution time";
  }
  if (cause == "AdmissionCheck") {
    return "an admission check rejected it";
  }
  if (cause == "EvictedOnManagerCluster") {
    return "it was evicted on the MultiKueue manager cluster";
  }
  return cause.empty() ? "a person set spec.active to false" : "of " + cause;
}

workload_reading read_workload(const packed_value& body) {
  workload_reading reading;
  const packed_value* finished = condition_of(body, "Finished");
  const packed_value* reserved = condition_of(body, "QuotaReserved");
  const packed_value* admitted = condition_of(body, "Admitted");
  const packed_value* evicted = condition_of(body, "Evicted");
  reading.finished = condition_true(finished);
  reading.quota_reserved = condition_true(reserved);
  reading.admitted = condition_true(admitted);
  reading.evicted = condition_true(evicted);
  if (!reading.finished) {
    reading.deactivated = find_deactivation(body);
  }

  // Kueue's order: Finished, Deactivated, Admitted, Evicted, Waiting for admission checks,
  // Pending, Inadmissible.
  if (reading.finished) {
    reading.state = {"Finished", string_or(*finished, {"reason"}), string_or(*finished, {"message"})};
    reading.since = transition_time(finished);
    return reading;
  }
  if (reading.deactivated) {
    const deactivation& how = *reading.deactivated;
    std::string message;
    if (!how.by_kueue) {
      message =
          "Deactivated by a person: spec.active is false, so Kueue will not admit it until it is set back to true.";
    } else if (how.in_progress) {
      message = "Kueue is deactivating it because " + deactivation_cause_words(how.cause) +
                (how.message.empty() ? "." : ": " + how.message);
    } else {
      message = how.message.empty() ? "Deactivated by Kueue because " + deactivation_cause_words(how.cause) + "."
                                    : how.message;
    }
    reading.state = {"Deactivated", how.reason, message};
    reading.since = how.since;
    return reading;
  }
  if (!reading.quota_reserved) {
    waiting_reason waiting;
    if (reserved != nullptr) {
      waiting.reason = string_or(*reserved, {"reason"});
      waiting.message = string_or(*reserved, {"message"});
    }
    waiting.since = since_of(reserved, body);
    reading.waiting = waiting;
  }
  if (reading.admitted) {
    reading.state = {"Admitted", string_or(*admitted, {"reason"}), string_or(*admitted, {"message"})};
    if (reading.evicted) {
      reading.state.message += (reading.state.message.empty() ? "" : " ") + std::string("Being evicted (") +
                               string_or(*evicted, {"reason"}) + "): " + string_or(*evicted, {"message"});
    }
    reading.since = transition_time(admitted);
    return reading;
  }
  if (reading.evicted && !reading.quota_reserved) {
    reading.state = {"Evicted", string_or(*evicted, {"reason"}), string_or(*evicted, {"message"})};
    reading.since = transition_time(evicted);
    return reading;
  }
  if (reading.quota_reserved) {
    std::string checks = check_list(body);
    std::string message = checks.empty() ? (admitted != nullptr ? string_or(*admitted, {"message"}) : std::string())
                                         : "Quota is reserved; waiting for admission checks: " + checks;
    reading.state = {"Waiting for admission checks", admitted != nullptr ? string_or(*admitted, {"reason"}) : "",
                     message};
    reading.since = transition_time(reserved);
    return reading;
  }
  const waiting_reason& waiting = *reading.waiting;
  reading.since = waiting.since;
  if (reserved == nullptr) {
    reading.state = {"Pending", "", "Queued: Kueue's scheduler has not considered it yet."};
    return reading;
  }
  reading.state = {inadmissible_reason(waiting.reason) ? "Inadmissible" : "Pending", waiting.reason, waiting.message};
  return reading;
}

eviction_summary evictions_of(const packed_value& workload) {
  eviction_summary summary;
  const packed_value* stats = find(workload, {"status", "schedulingStats", "evictions"});
  if (stats == nullptr || !stats->is_array()) {
    // Before v0.12 Kueue counted nothing: an eviction on record means "some, cannot tell".
    if (!condition_true(condition_of(workload, "Evicted"))) {
      summary.total = 0;
    }
    return summary;
  }
  std::map<std::pair<std::string, std::string>, std::int64_t> counts;
  std::vector<std::pair<std::string, std::string>> order;
  for (const packed_value& entry : *stats) {
    auto key = std::make_pair(string_or(entry, {"reason"}), string_or(entry, {"underlyingCause"}));
    if (!counts.contains(key)) {
      order.push_back(key);
    }
    counts[key] += get_int(entry, {"count"}).value_or(0);
  }
  std::int64_t total = 0;
  for (const auto& key : order) {
    summary.by_reason.push_back({key.first, key.second, counts[key]});
    total += counts[key];
  }
  summary.total = total;
  return summary;
}

json evictions_json(const eviction_summary& summary) {
  json by_reason = json::array();
  for (const eviction_count& entry : summary.by_reason) {
    by_reason.push_back(
        {{"reason", entry.reason},
         {"underlyingCause", entry.underlying_cause.empty() ? json(nullptr) : json(entry.underlying_cause)},
         {"count", entry.count}});
  }
  return json{{"total", summary.total ? json(*summary.total) : json(nullptr)}, {"byReason", std::move(by_reason)}};
}

}  // namespace sextant::kueue
