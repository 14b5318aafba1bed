#include "api/view_stamp.hpp"

#include "util/digest.hpp"

namespace sextant {

time_point render_instant(const daemon_state& state) {
  return std::chrono::floor<std::chrono::seconds>(state.time.now());
}

view_stamp::view_stamp(const view_reads& reads, const daemon_state& state, time_point rendered_at)
    : kinds_(reads.kinds.begin(), reads.kinds.end()), served_(state.served.generation()) {
  if (reads.every_kind) {
    every_kind_ = reads.every_kind_generation;
  }
  if (!reads.documents.empty()) {
    documents_ = reads.documents_generation;
    asked_ = reads.documents;
  }
  if (reads.problems) {
    problems_ = state.problems.generation();
  }
  if (reads.clock) {
    second_ = std::chrono::duration_cast<std::chrono::seconds>(rendered_at.time_since_epoch()).count();
  }
}

bool view_stamp::current(const daemon_state& state) const {
  if (served_ != state.served.generation()) {
    return false;
  }
  if (every_kind_ && *every_kind_ != state.store.generation()) {
    return false;
  }
  for (const auto& [type, generation] : kinds_) {
    if (state.store.generation(type) != generation) {
      return false;
    }
  }
  if (documents_ && *documents_ != state.documents.generation()) {
    return false;
  }
  if (problems_ && *problems_ != state.problems.generation()) {
    return false;
  }
  if (second_) {
    auto now = std::chrono::duration_cast<std::chrono::seconds>(render_instant(state).time_since_epoch()).count();
    if (now != *second_) {
      return false;
    }
  }
  return true;
}

void view_stamp::ask_again(const daemon_state& state) const {
  for (const document_key& key : asked_) {
    state.documents.ask(key);
  }
  for (const auto& [type, generation] : kinds_) {
    if (state.catalog.read_on_demand(type)) {
      state.source->demand(type);
    }
  }
}

std::uint64_t view_stamp::digest() const {
  fnv1a hash;
  hash.add(served_);
  for (const auto& [type, generation] : kinds_) {
    hash.add(type.group);
    hash.add(type.kind);
    hash.add(generation);
  }
  hash.add(every_kind_.value_or(~std::uint64_t{0}));
  hash.add(documents_.value_or(~std::uint64_t{0}));
  hash.add(problems_.value_or(~std::uint64_t{0}));
  hash.add(second_ ? static_cast<std::uint64_t>(*second_) : ~std::uint64_t{0});
  return hash.value;
}

std::vector<kind_key> view_stamp::kinds() const {
  std::vector<kind_key> out;
  out.reserve(kinds_.size());
  for (const auto& [type, generation] : kinds_) {
    out.push_back(type);
  }
  return out;
}

}  // namespace sextant
