#include "auth/cut_memo.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <variant>

namespace sextant {

namespace {

// What a map or set node costs beside its text (three pointers, colour, allocation header).
constexpr std::size_t node_bytes = 64;

std::size_t scope_bytes(const std::pair<kind_key, std::string>& scope) {
  return node_bytes + scope.first.group.size() + scope.first.kind.size() + scope.second.size();
}

struct cut_weight {
  std::size_t operator()(const list_decision& decided) const {
    std::size_t bytes = sizeof(list_decision) + (decided.refusal ? decided.refusal->message.size() : 0);
    if (decided.cut) {
      bytes += decided.cut->identity.size();
      if (decided.cut->namespaces) {
        for (const std::string& namespace_ : *decided.cut->namespaces) {
          bytes += node_bytes + namespace_.size();
        }
      }
      // Each hidden scope twice: in the map, and in the map the cut's hider asked (which also
      // holds the scopes shown, at most as many again as the runs name).
      for (const auto& [scope, sentence] : decided.cut->hidden_scopes) {
        bytes += 2 * (scope_bytes(scope) + sentence.size());
      }
    }
    return bytes;
  }
  std::size_t operator()(const joined_cut& cut) const {
    std::size_t bytes = sizeof(joined_cut) + cut.identity.size();
    for (const auto& [scope, sentence] : cut.hidden) {
      bytes += scope_bytes(scope) + sentence.size();
    }
    return bytes;
  }
  std::size_t operator()(const problems_cut& cut) const {
    std::size_t bytes = sizeof(problems_cut) + cut.identity.size();
    if (cut.shown) {
      for (const auto& scope : *cut.shown) {
        bytes += scope_bytes(scope);
      }
    }
    return bytes;
  }
};

}  // namespace

cut_memo::cut_memo(std::chrono::steady_clock::duration longest, std::size_t max_entries, std::size_t max_bytes)
    : longest_(longest), entries_(longest, max_entries, max_bytes, &cut_memo::weight) {}

std::size_t cut_memo::weight(const std::string& key, const entry& kept) {
  // Twice the key: in the map and in the order of entries.
  return 2 * (node_bytes + key.size()) + std::visit(cut_weight{}, kept.cut);
}

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
