#include "kube/api_status.hpp"

namespace sextant::kube {

std::string api_error::describe() const {
  if (code == 0) {
    return message;
  }
  std::string out = std::to_string(code);
  if (!reason.empty()) {
    out += " " + reason;
  }
  if (!message.empty()) {
    out += ": " + message;
  }
  return out;
}

api_error status_error(const json& status, int http_code) {
  api_error error;
  auto code = get_int(status, {"code"});
  error.code = code && *code > 0 ? static_cast<int>(*code) : http_code;
  error.reason = string_or(status, {"reason"});
  error.message = string_or(status, {"message"});
  if (auto seconds = get_int(status, {"details", "retryAfterSeconds"}); seconds && *seconds > 0) {
    error.retry_after = std::chrono::seconds(*seconds);
  }
  return error;
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view header) {
  while (!header.empty() && (header.front() == ' ' || header.front() == '\t')) {
    header.remove_prefix(1);
  }
  while (!header.empty() && (header.back() == ' ' || header.back() == '\t')) {
    header.remove_suffix(1);
  }
  if (header.empty() || header.size() > 9) {
    return std::nullopt;  // absent, or past a decade: not a delay anyone means
  }
  std::int64_t seconds = 0;
  for (char c : header) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    seconds = seconds * 10 + (c - '0');
  }
  return std::chrono::seconds(seconds);
}

api_error http_error(int code, std::string_view body, std::string_view retry_after) {
  json parsed = json::parse(body.begin(), body.end(), nullptr, false);
  api_error error;
  if (!parsed.is_discarded() && parsed.is_object() && string_or(parsed, {"kind"}) == "Status") {
    error = status_error(parsed, code);
    error.code = code;  // the HTTP code is what the client acts on
    if (auto header = parse_retry_after(retry_after)) {
      error.retry_after = header;
    }
    return error;
  }
  error.retry_after = parse_retry_after(retry_after);
  error.code = code;
  std::string text(body.substr(0, 300));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  error.message = text;
  return error;
}

}  // namespace sextant::kube
