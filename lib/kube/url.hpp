#pragma once
// The parts of an API server or proxy URL, and query-string encoding.
//
// Only what a kubeconfig holds: scheme://[user[:password]@]host[:port][/path]. IPv6 hosts come
// in brackets and are kept without them. Parsing never throws; a URL that cannot be read comes
// back empty with an error in plain words.
#include <optional>
#include <string>
#include <string_view>

namespace sextant::kube {

struct url {
  std::string scheme;     // "https"
  std::string host;       // "10.0.0.1", "::1", "api.example.com"
  std::string port;       // always set: the scheme's default when the URL omits it
  std::string path;       // "" or "/prefix", without a trailing slash
  std::string user_info;  // "user:password", percent-decoded

  // "host:port", with brackets around an IPv6 host.
  std::string authority() const;
};

struct url_result {
  std::optional<url> value;
  std::string error;
};

url_result parse_url(std::string_view text);

// Whether `host` is an IPv4 or IPv6 literal (certificates then carry it as an IP SAN).
bool is_ip_literal(std::string_view host);

// Percent-encodes a query value (RFC 3986 unreserved characters stay).
std::string encode_query_value(std::string_view value);

}  // namespace sextant::kube
