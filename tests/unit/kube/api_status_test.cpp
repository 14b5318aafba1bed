#include "kube/api_status.hpp"

#include <catch2/catch.hpp>

using namespace sextant;
using namespace sextant::kube;

TEST_CASE("Retry-After is read from the header, in seconds, or from the Status' details", "[kube][api_status]") {
  CHECK(parse_retry_after("3") == std::chrono::seconds(3));
  CHECK(parse_retry_after(" 10 ") == std::chrono::seconds(10));
  CHECK(parse_retry_after("0") == std::chrono::seconds(0));
  CHECK_FALSE(parse_retry_after(""));
  CHECK_FALSE(parse_retry_after("-1"));
  CHECK_FALSE(parse_retry_after("1.5"));
  CHECK_FALSE(parse_retry_after("Wed, 21 Oct 2026 07:28:00 GMT"));  // a date: not what the API server sends
  CHECK_FALSE(parse_retry_after("99999999999999999999"));

  // The API server's 429: a Status whose details say how long, and the same in the header.
  const std::string throttled =
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Too many requests, please try again later.",)"
      R"("reason":"TooManyRequests","details":{"retryAfterSeconds":2},"code":429})";
  api_error from_body = http_error(429, throttled);
  CHECK(from_body.code == 429);
  CHECK(from_body.reason == "TooManyRequests");
  CHECK(from_body.retry_after == std::chrono::seconds(2));
  CHECK(http_error(429, throttled, "7").retry_after == std::chrono::seconds(7));  // the header wins
  CHECK(http_error(503, "upstream connect error", "4").retry_after == std::chrono::seconds(4));
  CHECK_FALSE(http_error(500, "boom").retry_after);
  CHECK_FALSE(status_error(json::parse(R"({"kind":"Status","code":500,"reason":"InternalError"})")).retry_after);
}
