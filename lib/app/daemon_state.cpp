#include "app/daemon_state.hpp"

namespace sextant {

daemon_state::daemon_state(std::vector<section> sections, const clock& time_source)
    : catalog(std::move(sections)),
      profiles(catalog.profiles()),
      problems(catalog.categories(), catalog.rules()),
      time(time_source) {
  for (const auto& [type, profile] : profiles.all()) {
    for (const std::string& label : profile.indexed_labels) {
      store.index_label(type, label);
    }
  }
}

void daemon_state::mark_all_lists_complete() {
  for (const section& s : catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty()) {
        store.set_completeness(r.type, {list_completeness::state::complete, ""});
      }
    }
  }
}

std::optional<time_point> daemon_state::evaluate_problems() {
  return problems.evaluate(context());
}

}  // namespace sextant
