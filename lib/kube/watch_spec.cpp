#include "kube/watch_spec.hpp"

namespace sextant::kube {

std::string watch_spec::name() const {
  return type.group.empty() ? plural : plural + "." + type.group;
}

bool watch_spec::same_watch(const watch_spec& other) const {
  return type == other.type && version == other.version && plural == other.plural &&
         label_selector == other.label_selector && cap == other.cap && demand_only == other.demand_only &&
         namespace_ == other.namespace_ && not_watched_because == other.not_watched_because;
}

}  // namespace sextant::kube
