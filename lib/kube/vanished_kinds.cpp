#include "kube/vanished_kinds.hpp"

namespace sextant::kube {

vanished_kinds confirm_vanished(const std::vector<served_kind>& before, const served_kinds& after,
                                const std::set<kind_key>& pending) {
  vanished_kinds out;
  for (const served_kind& kind : before) {
    if (after.serves(kind.type)) {
      continue;
    }
    if (pending.contains(kind.type)) {
      out.dropped.push_back(kind.type);
    } else {
      out.kept.push_back(kind);
      out.pending.insert(kind.type);
    }
  }
  return out;
}

}  // namespace sextant::kube
