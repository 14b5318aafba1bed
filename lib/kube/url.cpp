#include "kube/url.hpp"

#include <cctype>

#include <boost/asio/ip/address.hpp>

#include "util/percent_encoding.hpp"

namespace sextant::kube {
namespace {

// Digits only, no sign or spaces, and small enough to be a TCP port; any number of digits.
bool is_port_number(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  unsigned long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
    value = value * 10 + static_cast<unsigned long>(c - '0');
    if (value > 65535) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string url::authority() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return h + ":" + port;
}

url_result parse_url(std::string_view text) {
  auto fail = [text](const std::string& why) {
    return url_result{std::nullopt, "\"" + std::string(text) + "\" is not a usable URL: " + why};
  };
  auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0) {
    return fail("it has no scheme (expected https://host:port)");
  }
  url out;
  out.scheme = std::string(text.substr(0, scheme_end));
  for (char& c : out.scheme) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::string_view rest = text.substr(scheme_end + 3);
  auto path_start = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, path_start);
  if (path_start != std::string_view::npos && rest[path_start] == '/') {
    std::string_view path = rest.substr(path_start);
    path = path.substr(0, path.find_first_of("?#"));
    while (!path.empty() && path.back() == '/') {
      path.remove_suffix(1);
    }
    out.path = std::string(path);
  }
  auto at = authority.rfind('@');
  if (at != std::string_view::npos) {
    out.user_info = *percent_decode(authority.substr(0, at), false, malformed_escape::keep);
    authority = authority.substr(at + 1);
  }
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) {
      return fail("an IPv6 host lacks its closing ']'");
    }
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return fail("unexpected text after the IPv6 host");
      }
      port = after.substr(1);
    }
  } else {
    auto colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      authority = authority.substr(0, colon);
    }
    out.host = std::string(authority);
  }
  if (out.host.empty()) {
    return fail("it has no host");
  }
  if (port.empty()) {
    if (out.scheme == "https") {
      port = "443";
    } else if (out.scheme == "http") {
      port = "80";
    } else if (out.scheme == "socks5") {
      port = "1080";
    } else {
      return fail("it has no port and no default one for scheme " + out.scheme);
    }
  } else if (!is_port_number(port)) {
    return fail("its port \"" + std::string(port) + "\" is not a number up to 65535");
  }
  out.port = std::string(port);
  return {std::move(out), {}};
}

bool is_ip_literal(std::string_view host) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(std::string(host), ec);
  return !ec;
}

std::string encode_query_value(std::string_view value) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : value) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 0xF];
    }
  }
  return out;
}

}  // namespace sextant::kube
