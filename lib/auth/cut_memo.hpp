#pragma once
// Cuts decided for one caller, kept between its requests: a caller polling a list, the problems or
// a view that joins other objects gets its cut in one lookup, not by asking one question per
// namespace or joined scope again (auth/caller_cuts.hpp).
//
// An entry holds while every decision it was made from holds (the earliest of their ends in the
// authorizer's cache), and only for the source it was decided on, when it has one: a list's cut
// is the model's (its namespaces and joined scopes; a namespace that appeared makes a new model),
// a joined answer's copy is that answer's text's. The key says what the cut is of; the caller
// that owns it is the first part of it. Bounded: past `max_entries` the oldest entry goes first.
#include <chrono>
#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "auth/caller_cuts.hpp"
#include "auth/expiring_cache.hpp"

namespace sextant {

// A caller's cut of the problems: the scopes (kind, namespace) whose problems it may list, and
// what tells this cut from another (the key its answer is kept under).
struct problems_cut {
  std::shared_ptr<const std::set<std::pair<kind_key, std::string>>> shown;
  std::string identity;
};

// kept_cut (caller_cuts.hpp) is one of: list_decision, joined_cut, problems_cut.

class cut_memo {
 public:
  using time = std::chrono::steady_clock::time_point;

  // `longest`: no entry is kept longer, whatever its decisions say (the decision cache's time).
  // `max_bytes`: about what the entries may hold together (a caller's cut names namespaces and
  // scopes, hundreds for a reader of most of a large cluster).
  cut_memo(std::chrono::steady_clock::duration longest, std::size_t max_entries,
           std::size_t max_bytes = std::size_t{8} << 20);

  // The cut kept under `key` for `source` (null: kept without one), or null.
  const kept_cut* find(const std::string& key, const void* source, time now);
  // Keeps a decided cut (never one waiting for a decision) until `holds_until`. `source`: what
  // it was decided on (empty: nothing but the key).
  void keep(const std::string& key, const std::shared_ptr<const void>& source, kept_cut cut, time now,
            time holds_until);

  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const { return entries_.bytes(); }

 private:
  struct entry {
    std::weak_ptr<const void> source;  // weak: a memo never keeps an old model or text alive
    bool has_source = false;
    kept_cut cut;
  };
  static std::size_t weight(const std::string& key, const entry& kept);

  std::chrono::steady_clock::duration longest_;
  expiring_cache<entry> entries_;
};

}  // namespace sextant
