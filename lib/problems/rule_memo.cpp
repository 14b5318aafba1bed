#include "problems/rule_memo.hpp"

namespace sextant {

void rule_memo::note_change(const cached_object& object) {
  if (too_many_changes_) {
    return;
  }
  if (changed_.size() >= max_changes) {
    // A relist or a burst: judging the kind whole costs less than remembering every name.
    too_many_changes_ = true;
    changed_.clear();
    return;
  }
  changed_.emplace(std::string(object.namespace_), std::string(object.name));
}

bool rule_memo::holds(const object_store& store, const served_kinds& served) const {
  if (!whole_ || too_many_changes_ || reads_.clock || reads_.every_kind || !reads_.documents.empty() ||
      served.generation() != served_generation_) {
    return false;
  }
  for (const auto& [type, generation] : reads_.kinds) {
    if (store.generation(type) != generation) {
      return false;
    }
  }
  return true;
}

std::set<rule_memo::object_name> rule_memo::take_changes() {
  whole_ = false;
  too_many_changes_ = false;
  return std::exchange(changed_, {});
}

void rule_memo::complete(view_reads reads, std::uint64_t served_generation) {
  reads_ = std::move(reads);
  served_generation_ = served_generation;
  whole_ = true;
}

void rule_memo::forget() {
  whole_ = false;
  too_many_changes_ = false;
  reads_ = {};
  found_.clear();
  changed_.clear();
}

}  // namespace sextant
