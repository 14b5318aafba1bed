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
  return error;
}

api_error http_error(int code, std::string_view body) {
  json parsed = json::parse(body.begin(), body.end(), nullptr, false);
  if (!parsed.is_discarded() && parsed.is_object() && string_or(parsed, {"kind"}) == "Status") {
    api_error error = status_error(parsed, code);
    error.code = code;  // the HTTP code is what the client acts on
    return error;
  }
  api_error error;
  error.code = code;
  std::string text(body.substr(0, 300));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  error.message = text;
  return error;
}

}  // namespace sextant::kube
