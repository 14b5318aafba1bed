#pragma once
// One HTTP/1.1 request and its answer on an open stream, plain or TLS: what the tests' two
// clients (admin_client over TLS, plain_connection) share.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "admin_client.hpp"

namespace sextant::integration {

using http_headers = std::vector<std::pair<std::string, std::string>>;

// The answer (status 0 and the error when the write or the read failed); `keep_alive` says
// whether the stream may carry the next request. `body` (JSON) is sent when not null.
template <class Stream>
answer exchange(Stream& stream, boost::beast::flat_buffer& buffer, const std::string& method,
                const std::string& authority, const std::string& path, const http_headers& extra,
                const std::string* body, bool& keep_alive) {
  namespace http = boost::beast::http;
  http::request<http::string_body> request{http::string_to_verb(method), path, 11};
  request.set(http::field::host, authority);
  for (const auto& [name, value] : extra) {
    request.set(name, value);
  }
  if (body != nullptr) {
    request.set(http::field::content_type, "application/json");
    request.body() = *body;
  }
  request.prepare_payload();
  boost::beast::error_code ec;
  http::write(stream, request, ec);
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{1} << 30);
  if (!ec) {
    http::read(stream, buffer, parser, ec);
  }
  keep_alive = !ec && parser.get().keep_alive();
  if (ec) {
    return answer{0, {}, method + " " + path + ": " + ec.message()};
  }
  const auto& response = parser.get();
  return answer{static_cast<int>(response.result_int()),
                response.body(),
                {},
                std::string(response[http::field::retry_after]),
                std::string(response[http::field::etag])};
}

}  // namespace sextant::integration
