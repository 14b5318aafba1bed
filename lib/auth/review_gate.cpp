#include "auth/review_gate.hpp"

#include <algorithm>

namespace sextant {
namespace {

std::chrono::seconds whole_seconds_until(review_gate::time then, review_gate::time now) {
  const auto left = std::chrono::ceil<std::chrono::seconds>(then - now);
  return std::max(left, std::chrono::seconds(1));
}

}  // namespace

std::optional<std::chrono::seconds> review_gate::refusal(time now) {
  if (in_flight_ >= max_in_flight_) {
    return std::chrono::seconds(1);
  }
  if (failing_) {
    if (probe_out_ || now < next_probe_) {
      return whole_seconds_until(next_probe_, now);
    }
    probe_out_ = true;
  }
  ++in_flight_;
  return std::nullopt;
}

void review_gate::answered(time now) {
  if (in_flight_ > 0) {
    --in_flight_;
  }
  if (failing_) {
    recovery_->last = now;
  }
  failing_ = false;
  probe_out_ = false;
  last_failure_.clear();
}

std::chrono::seconds review_gate::failed(time now, std::optional<std::chrono::seconds> asked, std::string why) {
  if (in_flight_ > 0) {
    --in_flight_;
  }
  // A review sent before the failure began may end while a probe is out: the next probe still
  // waits a whole pause from this failure.
  const std::chrono::seconds pause = std::clamp(asked.value_or(pause_), pause_, longest_pause_);
  failing_ = true;
  probe_out_ = false;
  next_probe_ = std::max(next_probe_, now + pause);
  last_failure_ = std::move(why);
  return pause;
}

std::string not_sent_because(const review_gate& gate, const std::string& kind) {
  if (gate.failing()) {
    return "the API server is failing " + kind + " (" + gate.last_failure() + ")";
  }
  return "too many " + kind + " are waiting for the API server";
}

}  // namespace sextant
