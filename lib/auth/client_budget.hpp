#pragma once
// A budget per client (a token bucket each): `per_minute` a minute, up to `burst` at once.
//
// Used for bearer tokens that turn out invalid: every token the daemon has no verdict for costs a
// TokenReview, so a client sending made-up tokens would have the API server review each one and
// push real callers' verdicts out of the cache. A review is taken from the client's budget before
// it is sent and given back when the token is good, so callers with good tokens are never held;
// a client out of budget is answered 429 with Retry-After, as the API server's priority and
// fairness answers a client it will not serve now.
//
// Bounded: at most `max_clients` buckets; past it the one untouched longest goes (a bucket
// untouched for burst / rate is full again, so nothing is lost by forgetting it). The time comes
// in from the caller, so tests drive it.
#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <string>

namespace sextant {

class client_budget {
 public:
  using time = std::chrono::steady_clock::time_point;

  client_budget(double per_minute, double burst, std::size_t max_clients = 4096);

  // Takes one from `client`'s bucket; false when it is empty, with `retry_after` set to when
  // the next one is back.
  bool take(const std::string& client, time now, std::chrono::seconds& retry_after);
  // Gives one back (the review it paid for found a good token).
  void give_back(const std::string& client);

  std::size_t clients() const { return buckets_.size(); }

 private:
  struct bucket {
    double left = 0;
    time updated{};
    std::list<std::string>::iterator position;
  };
  double per_second_;
  double burst_;
  std::size_t max_clients_;
  std::map<std::string, bucket> buckets_;
  std::list<std::string> order_;  // least recently touched first
};

}  // namespace sextant
