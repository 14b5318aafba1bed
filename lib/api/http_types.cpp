#include "api/http_types.hpp"

#include <cstdint>
#include <cstdio>

#include "util/masking/secrets.hpp"
#include "util/percent_encoding.hpp"

namespace sextant {

api_response error_response(int status, const std::string& reason, const std::string& message) {
  api_response response;
  response.status = status;
  // Errors quote sections (a log route's refusal), the API server and exceptions: masked here once
  // for every route (util/masking).
  response.body =
      json{{"error", {{"code", status}, {"reason", reason}, {"message", masking::operator_text(message)}}}}.dump(
          -1, ' ', false, json::error_handler_t::replace);
  return response;
}

api_response json_response(const json& body, int status) {
  api_response response;
  response.status = status;
  response.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return response;
}

parsed_target parse_target(const std::string& target) {
  parsed_target parsed;
  if (target.empty() || target[0] != '/') {
    parsed.error = "the request target must be a path starting with /";
    return parsed;
  }
  std::string_view view = target;
  std::string_view path = view.substr(0, view.find('?'));
  std::string_view query = view.size() > path.size() ? view.substr(path.size() + 1) : std::string_view{};
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    std::string_view raw = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!raw.empty()) {
      std::optional<std::string> segment = percent_decode(raw);
      if (!segment) {
        parsed.error = "malformed percent-encoding in the path";
        return parsed;
      }
      parsed.segments.push_back(std::move(*segment));
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    if (!pair.empty()) {
      std::size_t eq = pair.find('=');
      std::optional<std::string> decoded_key = percent_decode(pair.substr(0, eq), true);
      std::optional<std::string> decoded_value =
          eq == std::string_view::npos ? std::optional<std::string>("") : percent_decode(pair.substr(eq + 1), true);
      if (!decoded_key || !decoded_value) {
        parsed.error = "malformed percent-encoding in the query";
        return parsed;
      }
      std::string key = std::move(*decoded_key);
      std::string value = std::move(*decoded_value);
      if (parsed.query.contains(key)) {
        parsed.error = "query parameter \"" + key + "\" is given more than once";
        return parsed;
      }
      parsed.query[key] = value;
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query.remove_prefix(amp + 1);
  }
  return parsed;
}

std::string etag_of(const std::string& body) {
  // FNV-1a, 64 bits: stable across runs and builds, which std::hash does not promise.
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : body) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "\"%016llx\"", static_cast<unsigned long long>(hash));
  return buffer;
}

bool etag_matches(const std::string& if_none_match, const std::string& etag) {
  std::string_view rest = if_none_match;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view candidate = rest.substr(0, comma);
    while (!candidate.empty() && (candidate.front() == ' ' || candidate.front() == '\t')) {
      candidate.remove_prefix(1);
    }
    while (!candidate.empty() && (candidate.back() == ' ' || candidate.back() == '\t')) {
      candidate.remove_suffix(1);
    }
    if (candidate == "*") {
      return true;
    }
    if (candidate.starts_with("W/")) {
      candidate.remove_prefix(2);  // If-None-Match compares weakly
    }
    if (candidate == etag) {
      return true;
    }
    if (comma == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace sextant
