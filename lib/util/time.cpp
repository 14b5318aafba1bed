#include "util/time.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>

namespace sextant {
namespace {

bool read_digits(std::string_view text, std::size_t& pos, int count, int& out) {
  if (pos + static_cast<std::size_t>(count) > text.size()) {
    return false;
  }
  int value = 0;
  for (int i = 0; i < count; ++i) {
    char c = text[pos + static_cast<std::size_t>(i)];
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) {
      return false;
    }
    value = value * 10 + (c - '0');
  }
  pos += static_cast<std::size_t>(count);
  out = value;
  return true;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
  if (pos < text.size() && (text[pos] == c || (c == 'T' && (text[pos] == 't' || text[pos] == ' ')))) {
    ++pos;
    return true;
  }
  return false;
}

}  // namespace

std::optional<time_point> parse_rfc3339(std::string_view text) {
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, pos, 4, year) || !expect(text, pos, '-') || !read_digits(text, pos, 2, month) ||
      !expect(text, pos, '-') || !read_digits(text, pos, 2, day) || !expect(text, pos, 'T') ||
      !read_digits(text, pos, 2, hour) || !expect(text, pos, ':') || !read_digits(text, pos, 2, minute) ||
      !expect(text, pos, ':') || !read_digits(text, pos, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::chrono::nanoseconds fraction{0};
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    long long scale = 100'000'000;
    std::size_t start = pos;
    long long nanos = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
      if (scale > 0) {
        nanos += (text[pos] - '0') * scale;
        scale /= 10;
      }
      ++pos;
    }
    if (pos == start) {
      return std::nullopt;
    }
    fraction = std::chrono::nanoseconds(nanos);
  }
  int offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int off_hours = 0, off_minutes = 0;
    if (!read_digits(text, pos, 2, off_hours) || !expect(text, pos, ':') || !read_digits(text, pos, 2, off_minutes)) {
      return std::nullopt;
    }
    offset_minutes = sign * (off_hours * 60 + off_minutes);
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) {
    return std::nullopt;
  }
  using namespace std::chrono;
  year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                      std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) {
    return std::nullopt;
  }
  auto at = sys_days{date} + hours{hour} + minutes{minute} + seconds{second} - minutes{offset_minutes};
  // The clock counts nanoseconds in 64 bits: about 1678 to 2262. A time outside that (a year
  // such as 9999 is valid RFC 3339) cannot be held, and converting it would overflow.
  constexpr auto representable = duration_cast<seconds>(system_clock::duration::max()) - seconds{1};
  if (at.time_since_epoch() >= representable || at.time_since_epoch() <= -representable) {
    return std::nullopt;
  }
  return time_point{duration_cast<system_clock::duration>(at.time_since_epoch() + fraction)};
}

std::string format_rfc3339(time_point at) {
  using namespace std::chrono;
  auto secs = floor<seconds>(at);
  auto days = floor<std::chrono::days>(secs);
  year_month_day date{days};
  hh_mm_ss time{secs - days};
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()));
  return buffer;
}

}  // namespace sextant
