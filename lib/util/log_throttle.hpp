#pragma once
// One log line a period for a message that can repeat without end (an accept that fails while
// descriptors are out, a review the API server keeps refusing): the first line is written, the
// next ones within the period are counted, and the next line written says how many were held
// back. The time comes in from the caller, so tests drive it.
#include <chrono>
#include <cstdint>
#include <string>

namespace sextant {

class log_throttle {
 public:
  using time = std::chrono::steady_clock::time_point;

  explicit log_throttle(std::chrono::steady_clock::duration period = std::chrono::seconds(10)) : period_(period) {}

  // Whether a line may be written at `now`; when it may, `held_back` says how many were not
  // written since the last one (0 the first time).
  bool allow(time now, std::uint64_t& held_back) {
    if (written_ && now - last_ < period_) {
      ++held_;
      return false;
    }
    written_ = true;
    last_ = now;
    held_back = held_;
    held_ = 0;
    return true;
  }

  // " (N more like it not logged)" or nothing: the end of the line `allow` let through.
  static std::string held_back_note(std::uint64_t held_back) {
    return held_back == 0 ? std::string()
                          : " (" + std::to_string(held_back) + " more like it not logged since the last)";
  }

 private:
  std::chrono::steady_clock::duration period_;
  bool written_ = false;
  time last_{};
  std::uint64_t held_ = 0;
};

}  // namespace sextant
