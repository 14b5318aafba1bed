#pragma once
// Wall-clock instants as the API server writes them (RFC 3339), and the clock seam.
//
// Interpreters never read a clock: they get `now` from their context. The daemon reads time
// through `clock` so that snapshot mode (`--now`) and tests can fix it.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace sextant {

using time_point = std::chrono::system_clock::time_point;

// Parses "2026-03-01T10:02:03Z", with optional fractional seconds and a numeric offset.
std::optional<time_point> parse_rfc3339(std::string_view text);

// "2026-03-01T10:02:03Z" (UTC, whole seconds).
std::string format_rfc3339(time_point at);

class clock {
 public:
  virtual ~clock() = default;
  virtual time_point now() const = 0;
};

class wall_clock final : public clock {
 public:
  time_point now() const override { return std::chrono::system_clock::now(); }
};

// A clock that reads what it was set to: `--now` and the tests.
class fixed_clock final : public clock {
 public:
  explicit fixed_clock(time_point at) : at_(at) {}
  time_point now() const override { return at_; }
  void set(time_point at) { at_ = at; }
  void advance(std::chrono::seconds by) { at_ += by; }

 private:
  time_point at_;
};

}  // namespace sextant
