#include <catch2/catch.hpp>

#include "util/time.hpp"

using namespace sextant;

TEST_CASE("RFC 3339 times parse and format back", "[time]") {
  auto at = parse_rfc3339("2026-11-29T10:00:00.5+01:00");
  REQUIRE(at.has_value());
  CHECK(format_rfc3339(*at) == "2026-11-29T09:00:00Z");
  CHECK_FALSE(parse_rfc3339("2026-02-30T10:00:00Z").has_value());
  CHECK_FALSE(parse_rfc3339("2026-11-29T10:00:00").has_value());  // no zone
}

TEST_CASE("a valid RFC 3339 time the clock cannot hold is refused, not overflowed", "[time]") {
  // Nanoseconds in 64 bits reach from 1677 to 2262; the fuzz target found year 2726 overflowing.
  CHECK_FALSE(parse_rfc3339("9999-12-31T23:59:59Z").has_value());
  CHECK_FALSE(parse_rfc3339("2726-11-29T10:00:00Z").has_value());
  CHECK_FALSE(parse_rfc3339("0001-01-01T00:00:00Z").has_value());
  CHECK(parse_rfc3339("2261-12-31T23:59:59Z").has_value());
  CHECK(parse_rfc3339("1970-01-01T00:00:00Z").has_value());
}
