#include "sections/core/core_section.hpp"

#include "sections/common/objects.hpp"

namespace sextant::core {

object_state job_state(const cached_object& job, const view_context&) {
  const packed_value& conditions = array_or_empty(job.body(), {"status", "conditions"});
  auto from = [&conditions](const char* type, const char* label) -> std::optional<object_state> {
    const packed_value* condition = find_condition(conditions, type);
    if (!condition_true(condition)) {
      return std::nullopt;
    }
    return object_state{label, string_or(*condition, {"reason"}), string_or(*condition, {"message"})};
  };
  // Terminal conditions first; FailureTarget/SuccessCriteriaMet precede the final ones while
  // the controller is still stopping pods.
  for (auto [type, label] :
       {std::pair{"Complete", "Complete"}, std::pair{"Failed", "Failed"}, std::pair{"FailureTarget", "Failed"},
        std::pair{"SuccessCriteriaMet", "Complete"}, std::pair{"Suspended", "Suspended"}}) {
    if (auto state = from(type, label)) {
      return *state;
    }
  }
  if (get_bool(job.body(), {"spec", "suspend"}).value_or(false)) {
    return {"Suspended", "", "spec.suspend is true; the controller has not confirmed it yet."};
  }
  if (get_int(job.body(), {"status", "active"}).value_or(0) > 0) {
    auto active = get_int(job.body(), {"status", "active"}).value_or(0);
    return {"Running", "", std::to_string(active) + " pod" + (active == 1 ? "" : "s") + " active"};
  }
  return {"Pending", "", "No pod is active yet."};
}

void job_details(const cached_object& job, const view_context& context, details_view& view) {
  const packed_value& body = job.body();
  view.blocks["pods"] = {
      {"active", get_int(body, {"status", "active"}).value_or(0)},
      {"ready", get_int(body, {"status", "ready"}).value_or(0)},
      {"succeeded", get_int(body, {"status", "succeeded"}).value_or(0)},
      {"failed", get_int(body, {"status", "failed"}).value_or(0)},
      {"completions",
       get_int(body, {"spec", "completions"}) ? json(*get_int(body, {"spec", "completions"})) : json(nullptr)},
      {"parallelism", get_int(body, {"spec", "parallelism"}).value_or(1)},
      {"backoffLimit", get_int(body, {"spec", "backoffLimit"}).value_or(6)}};
  link_owners(job, context, view);
  for (const object_ptr& pod : context.store.owned_by(pod_kind, job.uid)) {
    view.link(context, "pod", *pod);
  }
}

}  // namespace sextant::core
