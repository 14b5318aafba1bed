#pragma once
// Verdicts kept for a short time: a token's (by its hash) and an access decision's (by caller
// and question), and the cuts decided from them (cut_memo). Bounded: past `max_entries`, or past
// `max_bytes` of what the entries weigh (when a weigher is given), the oldest entry goes first.
// The time comes in from the caller (steady time), so the cache is a pure structure that tests
// drive.
#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
#include <list>
#include <map>
#include <optional>
#include <string>

namespace sextant {

template <class Value>
class expiring_cache {
 public:
  using time = std::chrono::steady_clock::time_point;
  // About how many bytes an entry holds, its key included.
  using weigher = std::function<std::size_t(const std::string& key, const Value& value)>;

  expiring_cache(std::chrono::steady_clock::duration ttl, std::size_t max_entries,
                 std::size_t max_bytes = std::numeric_limits<std::size_t>::max(), weigher weigh = {})
      : ttl_(ttl), max_entries_(max_entries), max_bytes_(max_bytes), weigh_(std::move(weigh)) {}

  // The value while it has not expired (and, in `expires`, until when); an expired one is dropped.
  // The holder may change the value in place (not its time).
  Value* find(const std::string& key, time now, time* expires = nullptr) {
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      return nullptr;
    }
    if (now >= it->second.expires) {
      drop(it);
      return nullptr;
    }
    if (expires != nullptr) {
      *expires = it->second.expires;
    }
    return &it->second.value;
  }

  // Kept for the cache's time, or for `keep_for` when given (a verdict that may soon change).
  // An entry heavier than the whole budget is not kept.
  void put(const std::string& key, Value value, time now,
           std::optional<std::chrono::steady_clock::duration> keep_for = std::nullopt) {
    if (auto it = entries_.find(key); it != entries_.end()) {
      drop(it);
    }
    const std::size_t weight = weigh_ ? weigh_(key, value) : 0;
    if (weight > max_bytes_) {
      return;
    }
    while (!entries_.empty() && (entries_.size() >= max_entries_ || bytes_ + weight > max_bytes_)) {
      drop(entries_.find(order_.front()));
    }
    order_.push_back(key);
    entries_.emplace(key, entry{std::move(value), now + keep_for.value_or(ttl_), std::prev(order_.end()), weight});
    bytes_ += weight;
  }

  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const { return bytes_; }

 private:
  struct entry {
    Value value;
    time expires;
    std::list<std::string>::iterator position;
    std::size_t weight = 0;
  };
  using entries = std::map<std::string, entry>;

  void drop(typename entries::iterator it) {
    bytes_ -= it->second.weight;
    order_.erase(it->second.position);
    entries_.erase(it);
  }

  std::chrono::steady_clock::duration ttl_;
  std::size_t max_entries_;
  std::size_t max_bytes_;
  weigher weigh_;
  entries entries_;
  std::list<std::string> order_;  // oldest first
  std::size_t bytes_ = 0;
};

}  // namespace sextant
