// States of Kueue's queue-like kinds: Cluster Queues, Local Queues, Admission Checks, Cohorts.
#include <set>

#include "sections/common/words.hpp"
#include "sections/kueue/kueue_fields.hpp"
#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {
namespace {

// Kueue lists every reason a Cluster Queue cannot admit in one message, the stop first, and
// writes the first as the reason: "Can't admit new workloads: is stopped, references missing
// ResourceFlavor(s): [h100]." (pkg/cache/scheduler/clusterqueue.go:311-363 at v0.19.2). What
// follows the stop is a fault of its own; empty when the stop is all.
std::string fault_besides_stop(const std::string& message) {
  static constexpr std::string_view stopped = "is stopped, ";
  std::size_t at = message.find(stopped);
  if (at == std::string::npos) {
    return {};
  }
  std::string rest = message.substr(at + stopped.size());
  if (rest.ends_with('.')) {
    rest.pop_back();
  }
  return rest;
}

// Both queue kinds read the same way: the Active condition decides; a stop and a deletion are
// said as such, anything else is inactive with Kueue's own message.
object_state queue_state(const cached_object& queue, std::string_view what) {
  const packed_value& body = queue.body();
  const packed_value* active = condition_of(body, "Active");
  if (active != nullptr) {
    object_state state{"", string_or(*active, {"reason"}), string_or(*active, {"message"})};
    if (condition_true(active)) {
      state.label = "Active";
    } else if (state.reason == "Stopped" && !fault_besides_stop(state.message).empty()) {
      // Inactive for another reason than the stop: Kueue writes only its first reason, the stop,
      // and names the fault in the message; lifting the stop leaves the queue inactive.
      state.label = "Inactive";
      state.message +=
          " It stays inactive when the stop is lifted: besides the stop, Kueue finds it "
          "misconfigured.";
    } else if (state.reason == "Stopped") {
      state.label = "Stopped";
    } else if (state.reason == "Terminating") {
      state.label = "Terminating";
    } else {
      state.label = "Inactive";
    }
    if (being_deleted(body) && state.label != "Terminating") {
      state.label = "Terminating";
      state.reason = "Terminating";
      state.message = "Being deleted.";
    }
    return state;
  }
  if (being_deleted(body)) {
    return {"Terminating", "Terminating", "Being deleted."};
  }
  std::string stop = stop_policy_of(body);
  if (stop != "None") {
    return {"Stopped", "",
            "Stop policy " + stop + " is set; Kueue has not reported this " + std::string(what) + "'s state yet."};
  }
  return {"Inactive", "",
          "Kueue has not reported this " + std::string(what) + "'s state (no Active condition): is Kueue running?"};
}

std::string chain_text(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : " → ") + name;
  }
  return out;
}

}  // namespace

std::optional<time_point> queue_fault_since(const cached_object& queue) {
  const packed_value* active = condition_of(queue.body(), "Active");
  if (active == nullptr || condition_true(active)) {
    return std::nullopt;
  }
  if (string_or(*active, {"reason"}) == "Stopped" && fault_besides_stop(string_or(*active, {"message"})).empty()) {
    return std::nullopt;  // a stop alone is no fault
  }
  // Kueue sets the condition with SetStatusCondition, which keeps lastTransitionTime while the
  // status stays False (clusterqueue_controller.go:538, localqueue_controller.go:686): lifting a
  // stop from a misconfigured queue changes only the reason, and the time is the stop's. A spec
  // never edited (generation 1) cannot have had its stop lifted.
  std::optional<std::int64_t> generation = get_int(queue.body(), {"metadata", "generation"});
  if (generation && *generation > 1) {
    return std::nullopt;
  }
  return transition_time(active);
}

std::optional<time_point> queue_active_since(const cached_object& queue) {
  const packed_value* active = condition_of(queue.body(), "Active");
  return condition_true(active) ? transition_time(active) : std::nullopt;
}

std::vector<std::string> cohort_loop(const std::string& cohort, const view_context& context) {
  std::vector<std::string> chain{cohort};
  std::set<std::string> seen{cohort};
  object_ptr current = context.store.get(cohort_kind, "", cohort);
  while (current) {
    std::string parent = parent_of(current->body());
    if (parent.empty()) {
      return {};
    }
    chain.push_back(parent);
    if (!seen.insert(parent).second) {
      return chain;
    }
    current = context.store.get(cohort_kind, "", parent);
  }
  return {};  // ends at a root, or at a cohort not read
}

object_state cluster_queue_state(const cached_object& queue, const view_context& context) {
  object_state state = queue_state(queue, "Cluster Queue");
  // Kueue has no reason for a Cohort cycle. A queue already there when the cycle forms keeps
  // Active=True and admits nothing; one made under a cycle is never evaluated (its cohort tree
  // update fails first, pkg/cache/scheduler/clusterqueue.go:161-165) and Kueue writes Active=False
  // with the reason and message of an active one, "Ready" and "Can admit new workloads"
  // (clusterqueue.go:365, cache.go:389-400 at v0.19.2).
  const bool never_evaluated = state.label == "Inactive" && state.reason == "Ready";
  if (state.label != "Active" && !never_evaluated) {
    return state;
  }
  if (std::string cohort = cohort_of(queue.body()); !cohort.empty()) {
    if (std::vector<std::string> loop = cohort_loop(cohort, context); !loop.empty()) {
      return {"Inactive", "",
              "Kueue admits no Workload from it: its Cohort chain loops (" + chain_text(loop) +
                  "), and Kueue disables every Cluster Queue under a cycle until the cycle is removed. " +
                  (never_evaluated ? "Its Active condition is False with reason Ready: Kueue writes that for a "
                                     "Cluster Queue made under a cycle."
                                   : "Its Active condition stays True: Kueue writes no condition for a cycle.")};
    }
  }
  if (never_evaluated) {
    state.message = "Kueue reports it inactive with reason Ready (\"" + state.message +
                    "\"): it has not evaluated this queue, as for one made under a Cohort cycle.";
  }
  return state;
}

object_state local_queue_state(const cached_object& queue, const view_context& context) {
  object_state state = queue_state(queue, "Local Queue");
  // Kueue checks a Local Queue's stop before its Cluster Queue (localqueue_controller.go:194-196):
  // "LocalQueue is stopped" hides a Cluster Queue that keeps it inactive once the stop is lifted.
  std::string cluster_name = string_or(queue.body(), {"spec", "clusterQueue"});
  if (state.label != "Stopped" || cluster_name.empty()) {
    return state;
  }
  object_ptr cluster = context.store.get(cluster_queue_kind, "", cluster_name);
  std::string fault;
  if (!cluster && list_complete(context, cluster_queue_kind)) {
    fault = "does not exist";
  } else if (cluster && cluster_queue_state(*cluster, context).label == "Inactive") {
    fault = "is inactive";
  }
  if (!fault.empty()) {
    add_sentence(state.message,
                 "It stays inactive when the stop is lifted: its Cluster Queue " + cluster_name + " " + fault + ".");
  }
  return state;
}

object_state admission_check_state(const cached_object& check, const view_context&) {
  const packed_value* active = condition_of(check.body(), "Active");
  if (active == nullptr) {
    return {"Inactive", "", "The admission check's controller has not reported (no Active condition)."};
  }
  return {condition_true(active) ? "Active" : "Inactive", string_or(*active, {"reason"}),
          string_or(*active, {"message"})};
}

object_state cohort_state(const cached_object& cohort, const view_context& context) {
  // A Cohort has no conditions; what can go wrong is its place in the tree.
  std::set<std::string> seen{std::string(cohort.name)};
  std::string parent = parent_of(cohort.body());
  if (parent.empty()) {
    return {"Defined", "", "A root cohort."};
  }
  std::string first_parent = parent;
  while (!parent.empty()) {
    if (parent == cohort.name) {
      return {"In a cycle", "",
              "Its parents lead back to itself: Kueue disables every member Cluster Queue until "
              "the cycle is removed."};
    }
    if (!seen.insert(parent).second) {
      return {"In a cycle", "",
              "A cohort above it (" + parent +
                  ") is in a cycle: Kueue disables the member Cluster "
                  "Queues until the cycle is removed."};
    }
    object_ptr next = context.store.get(cohort_kind, "", parent);
    if (!next) {
      break;
    }
    parent = parent_of(next->body());
  }
  if (!context.store.get(cohort_kind, "", first_parent) && list_complete(context, cohort_kind)) {
    return {"Defined", "",
            "Under cohort " + first_parent +
                ", which has no Cohort object: Kueue uses a default "
                "(empty) cohort of that name."};
  }
  return {"Defined", "", "Under cohort " + first_parent + "."};
}

}  // namespace sextant::kueue
