#include "api/http_types.hpp"

#include <cstdint>
#include <cstdio>

namespace sextant {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

bool percent_decode(std::string_view in, std::string& out, bool plus_is_space) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) {
        return false;
      }
      int high = hex_value(in[i + 1]);
      int low = hex_value(in[i + 2]);
      if (high < 0 || low < 0) {
        return false;
      }
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return true;
}

}  // namespace

api_response error_response(int status, const std::string& reason, const std::string& message) {
  api_response response;
  response.status = status;
  response.body = json{{"error", {{"code", status}, {"reason", reason}, {"message", message}}}}.dump(
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
      std::string segment;
      if (!percent_decode(raw, segment, false)) {
        parsed.error = "malformed percent-encoding in the path";
        return parsed;
      }
      parsed.segments.push_back(std::move(segment));
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
      std::string key, value;
      if (!percent_decode(pair.substr(0, eq), key, true) ||
          (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), value, true))) {
        parsed.error = "malformed percent-encoding in the query";
        return parsed;
      }
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
