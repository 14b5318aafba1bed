#pragma once
// An API server's refusal, read from its `Status` body (or from the HTTP code when the body
// is not one), and the transport failures that came with no answer at all.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "util/json.hpp"

namespace sextant::kube {

struct api_error {
  int code = 0;         // HTTP code; 0 for no answer (network, TLS, credentials)
  std::string reason;   // Expired, Gone, Forbidden, NotFound, ... (Status.reason)
  std::string message;  // the server's words, or ours for a transport failure
  // How long the server asked to be left alone (a 429 or 503's Retry-After header, or the
  // Status' details.retryAfterSeconds): the next attempt waits at least this long.
  std::optional<std::chrono::seconds> retry_after{};

  bool gone() const { return code == 410; }
  bool transport() const { return code == 0; }
  // "410 Expired: too old resource version: 5 (7)"
  std::string describe() const;
};

// Reads a Status object (a refusal's body, or an ERROR watch event's object).
api_error status_error(const json& status, int http_code = 0);
// Reads a refusal: the body is a Status when it parses as one.
// `retry_after` is the answer's Retry-After header ("" when absent); it wins over the body's.
api_error http_error(int code, std::string_view body, std::string_view retry_after = {});
// A Retry-After header in its delay-seconds form (the API server's only one); nullopt for
// anything else, an HTTP date included.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view header);

}  // namespace sextant::kube
