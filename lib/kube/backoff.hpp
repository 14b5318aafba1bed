#pragma once
// client-go's reflector backoff: 800 ms doubling to 30 s, each delay stretched by a random
// jitter of up to 100 %, back to the start after 2 minutes without a failure. It keeps a
// struggling API server from being hammered by every watch at once.
#include <chrono>
#include <random>

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

  // The delay before the next attempt, at `now`.
  std::chrono::milliseconds next(std::chrono::steady_clock::time_point now);
  void reset() { step_ = policy_.initial; }
  const backoff_policy& policy() const { return policy_; }

 private:
  backoff_policy policy_;
  std::chrono::milliseconds step_;
  std::chrono::steady_clock::time_point last_{};
  std::mt19937_64 random_;
};

}  // namespace sextant::kube
