#pragma once
// Verdicts kept for a short time: a token's (by its hash) and an access decision's (by caller
// and question). Bounded: past `max_entries` the oldest entry goes first. The time comes in from
// the caller (steady time), so the cache is a pure structure that tests drive.
#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <optional>
#include <string>

namespace sextant {

template <class Value>
class expiring_cache {
 public:
  using time = std::chrono::steady_clock::time_point;

  expiring_cache(std::chrono::steady_clock::duration ttl, std::size_t max_entries)
      : ttl_(ttl), max_entries_(max_entries) {}

  // The value while it has not expired (and, in `expires`, until when); an expired one is dropped.
  const Value* find(const std::string& key, time now, time* expires = nullptr) {
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      return nullptr;
    }
    if (now >= it->second.expires) {
      order_.erase(it->second.position);
      entries_.erase(it);
      return nullptr;
    }
    if (expires != nullptr) {
      *expires = it->second.expires;
    }
    return &it->second.value;
  }

  // Kept for the cache's time, or for `keep_for` when given (a verdict that may soon change).
  void put(const std::string& key, Value value, time now,
           std::optional<std::chrono::steady_clock::duration> keep_for = std::nullopt) {
    if (auto it = entries_.find(key); it != entries_.end()) {
      order_.erase(it->second.position);
      entries_.erase(it);
    }
    while (!entries_.empty() && entries_.size() >= max_entries_) {
      entries_.erase(order_.front());
      order_.pop_front();
    }
    order_.push_back(key);
    entries_.emplace(key, entry{std::move(value), now + keep_for.value_or(ttl_), std::prev(order_.end())});
  }

  std::size_t size() const { return entries_.size(); }

 private:
  struct entry {
    Value value;
    time expires;
    std::list<std::string>::iterator position;
  };
  std::chrono::steady_clock::duration ttl_;
  std::size_t max_entries_;
  std::map<std::string, entry> entries_;
  std::list<std::string> order_;  // oldest first
};

}  // namespace sextant
