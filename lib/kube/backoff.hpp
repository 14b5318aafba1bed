#pragma once
// client-go's reflector backoff: 800 ms doubling to 30 s, each delay stretched by a random
// jitter of up to 100 %, back to the start after 2 minutes without a failure. It keeps a
// struggling API server from being hammered by every watch at once.
#include <chrono>
#include <optional>
#include <random>

#include "util/time.hpp"

namespace sextant::kube {

struct backoff_policy {
  std::chrono::milliseconds initial{800};
  std::chrono::milliseconds cap{30000};
  double factor = 2.0;
  double jitter = 1.0;
  std::chrono::milliseconds reset_after{120000};
};

class backoff {
 public:
  explicit backoff(backoff_policy policy = {}, std::uint64_t seed = std::random_device{}());

  // The delay before the next attempt, at `now` of the clock its user reads (one per backoff):
  // the monotonic clock, or the injected wall clock that tests move by hand.
  std::chrono::milliseconds next(std::chrono::steady_clock::time_point now) { return next_at(now.time_since_epoch()); }
  std::chrono::milliseconds next(time_point now) { return next_at(now.time_since_epoch()); }
  void reset() { step_ = policy_.initial; }
  const backoff_policy& policy() const { return policy_; }

 private:
  std::chrono::milliseconds next_at(std::chrono::nanoseconds now);

  backoff_policy policy_;
  std::chrono::milliseconds step_;
  std::optional<std::chrono::nanoseconds> last_;
  std::mt19937_64 random_;
};

}  // namespace sextant::kube
