#include "auth/cut_memo.hpp"

#include <algorithm>

namespace sextant {

const kept_cut* cut_memo::find(const std::string& key, const void* source, time now) {
  const entry* found = entries_.find(key, now);
  if (found == nullptr || found->has_source != (source != nullptr)) {
    return nullptr;
  }
  // The same address may be a new source once the old one is gone: the weak pointer tells them apart.
  if (found->has_source && found->source.lock().get() != source) {
    return nullptr;
  }
  return &found->cut;
}

void cut_memo::keep(const std::string& key, const std::shared_ptr<const void>& source, kept_cut cut, time now,
                    time holds_until) {
  const auto* list = std::get_if<list_decision>(&cut);
  if (holds_until <= now || (list != nullptr && list->refusal && list->refusal->undecided)) {
    return;
  }
  const std::chrono::steady_clock::duration keep_for = std::min(longest_, holds_until - now);
  entries_.put(key, entry{source, source != nullptr, std::move(cut)}, now, keep_for);
}

}  // namespace sextant
