#pragma once
// One reading of a JobSet, shared by its state, summary, details and problem rules, so that all
// of them say the same thing. It reads the fields an object carries, whatever controller wrote
// them: before v0.6 (no restartsCountTowardsMax, no terminalState), v0.6 to v0.11 (a restart is
// seen only through status.restarts and the restart-attempt label of the child Jobs) and v0.12+
// (the RestartingJobSet condition).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::jobset {

// Restarts against the failure policy's limit.
struct restart_count {
  std::int64_t total = 0;    // status.restarts: every global restart
  std::int64_t counted = 0;  // those that count toward maxRestarts, global and of single Jobs
  // Jobs restarted one at a time (RestartJob, RestartJobAndIgnoreMaxRestarts; v0.12+):
  // replicatedJobsStatus[].jobRestarts summed, and jobRestartsCountTowardsMax summed (RestartJob's
  // only), which counts toward maxRestarts too.
  std::int64_t job_restarts = 0;
  std::int64_t job_restarts_counted = 0;
  // How `counted` was read: "restartsCountTowardsMax" (written by v0.6+), "every restart"
  // (the field is absent and no rule ignores the limit: every restart counted, as before v0.6),
  // "none" (absent, and a rule restarts without counting: the v0.6+ controller leaves a zero out).
  std::string counted_from;
  bool has_failure_policy = false;
  std::optional<std::int64_t> max_restarts;  // nullopt without a failure policy: no limit
  std::optional<std::int64_t> left;          // maxRestarts - counted, never below 0
};

// The Job a failure (or a restart) message names: "(first failed job: <name>)".
struct named_job {
  std::string name;
  json exists;         // true, false or "cannot tell"
  object_ptr job;      // when cached
  std::string reason;  // the Job's own Failed (or FailureTarget) condition
  std::string message;
};

struct jobset_reading {
  object_state state;
  std::optional<time_point> since;  // when the deciding condition last changed
  bool completed = false;
  bool failed = false;
  bool suspended = false;
  bool restarting = false;
  bool starting = false;
  // Whether the restart was told by the RestartingJobSet condition (v0.12+) or by child Jobs of
  // an earlier restart attempt still present (any version).
  std::string restart_seen_by;
  std::string startup_order;  // spec.startupPolicy.startupPolicyOrder, "" when unset
  restart_count restarts;
  std::optional<named_job> failed_job;  // the Job the Failed (else RestartingJobSet) message names
  std::vector<std::string> notes;       // fields of the wrong type, read around
};

jobset_reading read_jobset(const cached_object& jobset, const view_context& context);

// The name in "... (first failed job: <name>)", or empty.
std::string first_failed_job(const std::string& message);

// The JobSet's child Jobs or pods: same namespace, the JobSet name label, and (when they carry
// it) its uid label. At most `children_read_cap`; `cut` tells whether more were there.
struct children {
  std::vector<object_ptr> objects;
  bool cut = false;
};
children children_of(const cached_object& jobset, const kind_key& type, const view_context& context);

json restarts_json(const restart_count& restarts);

}  // namespace sextant::jobset
