#include "kube/backoff.hpp"

#include <algorithm>

namespace sextant::kube {

backoff::backoff(backoff_policy policy, std::uint64_t seed) : policy_(policy), step_(policy.initial), random_(seed) {}

std::chrono::milliseconds backoff::next_at(std::chrono::nanoseconds now) {
  if (last_ && now - *last_ > policy_.reset_after) {
    step_ = policy_.initial;
  }
  last_ = now;
  const std::chrono::milliseconds base = step_;
  auto grown =
      std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(step_.count()) * policy_.factor));
  step_ = std::min(grown, policy_.cap);
  std::uniform_real_distribution<double> spread(0.0, policy_.jitter);
  return base +
         std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(base.count()) * spread(random_)));
}

}  // namespace sextant::kube
