#pragma once
// An API server's refusal, read from its `Status` body (or from the HTTP code when the body
// is not one), and the transport failures that came with no answer at all.
#include <string>
#include <string_view>

#include "util/json.hpp"

namespace sextant::kube {

struct api_error {
  int code = 0;         // HTTP code; 0 for no answer (network, TLS, credentials)
  std::string reason;   // Expired, Gone, Forbidden, NotFound, ... (Status.reason)
  std::string message;  // the server's words, or ours for a transport failure

  bool gone() const { return code == 410; }
  bool transport() const { return code == 0; }
  // "410 Expired: too old resource version: 5 (7)"
  std::string describe() const;
};

// Reads a Status object (a refusal's body, or an ERROR watch event's object).
api_error status_error(const json& status, int http_code = 0);
// Reads a refusal: the body is a Status when it parses as one.
api_error http_error(int code, std::string_view body);

}  // namespace sextant::kube
