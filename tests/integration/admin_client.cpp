#include "admin_client.hpp"

#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "kube/url.hpp"

namespace sextant::integration {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

json answer::body() const {
  json parsed = json::parse(text, nullptr, false);
  return parsed.is_discarded() ? json() : parsed;
}

struct admin_client::impl {
  net::io_context io;
  ssl::context tls{ssl::context::tls_client};
  std::optional<beast::ssl_stream<beast::tcp_stream>> stream;
  beast::flat_buffer buffer;
  kube::url server;
  std::string token;
};

admin_client::admin_client(std::string server, std::string ca_file, std::string token)
    : impl_(std::make_unique<impl>()) {
  impl_->server = *kube::parse_url(server).value;
  impl_->token = std::move(token);
  impl_->tls.set_verify_mode(ssl::verify_peer);
  impl_->tls.load_verify_file(ca_file);
}

admin_client::~admin_client() = default;
admin_client::admin_client(admin_client&&) noexcept = default;

answer admin_client::get(const std::string& path) {
  return send("GET", path, nullptr);
}
answer admin_client::remove(const std::string& path) {
  return send("DELETE", path, nullptr);
}
answer admin_client::post(const std::string& path, const json& body) {
  std::string text = body.dump();
  return send("POST", path, &text);
}
answer admin_client::put(const std::string& path, const json& body) {
  std::string text = body.dump();
  return send("PUT", path, &text);
}

answer admin_client::send(const std::string& method, const std::string& path, const std::string* body) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    beast::error_code ec;
    if (!impl_->stream) {
      impl_->stream.emplace(impl_->io, impl_->tls);
      impl_->buffer.clear();
      tcp::resolver resolver(impl_->io);
      auto endpoints = resolver.resolve(impl_->server.host, impl_->server.port, ec);
      if (!ec) {
        beast::get_lowest_layer(*impl_->stream).connect(endpoints, ec);
      }
      if (!ec) {
        impl_->stream->handshake(ssl::stream_base::client, ec);
      }
      if (ec) {
        impl_->stream.reset();
        return answer{0, {}, "connect: " + ec.message()};
      }
    }
    http::request<http::string_body> request{http::string_to_verb(method), path, 11};
    request.set(http::field::host, impl_->server.authority());
    request.set(http::field::authorization, "Bearer " + impl_->token);
    request.set(http::field::accept, "application/json");
    if (body != nullptr) {
      request.set(http::field::content_type, "application/json");
      request.body() = *body;
    }
    request.prepare_payload();
    http::write(*impl_->stream, request, ec);
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 30);
    if (!ec) {
      http::read(*impl_->stream, impl_->buffer, parser, ec);
    }
    if (ec) {
      impl_->stream.reset();
      if (attempt == 0) {
        continue;  // the server closed an idle connection
      }
      return answer{0, {}, method + " " + path + ": " + ec.message()};
    }
    if (!parser.get().keep_alive()) {
      impl_->stream.reset();
    }
    return answer{static_cast<int>(parser.get().result_int()),
                  parser.get().body(),
                  {},
                  std::string(parser.get()[http::field::retry_after])};
  }
  return answer{0, {}, "unreachable"};
}

namespace {

// One plain-HTTP request with an empty body on a fresh connection: the control port and
// sextantd's own API both speak it.
answer plain_http(http::verb verb, const std::string& base_url, const std::string& path, const std::string& token = {},
                  const std::string* body = nullptr) {
  const std::string what = std::string(http::to_string(verb)) + " " + path + ": ";
  kube::url base = *kube::parse_url(base_url).value;
  net::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  tcp::resolver resolver(io);
  stream.connect(resolver.resolve(base.host, base.port, ec), ec);
  if (ec) {
    return answer{0, {}, what + ec.message()};
  }
  http::request<http::string_body> request{verb, path, 11};
  request.set(http::field::host, base.authority());
  if (!token.empty()) {
    request.set(http::field::authorization, "Bearer " + token);
  }
  if (body != nullptr) {
    request.set(http::field::content_type, "application/json");
    request.body() = *body;
  }
  request.prepare_payload();
  http::write(stream, request, ec);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{1} << 30);
  if (!ec) {
    http::read(stream, buffer, parser, ec);
  }
  if (ec) {
    return answer{0, {}, what + ec.message()};
  }
  return answer{static_cast<int>(parser.get().result_int()),
                parser.get().body(),
                {},
                std::string(parser.get()[http::field::retry_after])};
}

}  // namespace

answer control_post(const std::string& control_url, const std::string& path) {
  return plain_http(http::verb::post, control_url, path);
}

answer http_get(const std::string& base_url, const std::string& path) {
  return plain_http(http::verb::get, base_url, path);
}

answer http_as(const std::string& token, const std::string& method, const std::string& base_url,
               const std::string& path, const std::string& body) {
  return plain_http(http::string_to_verb(method), base_url, path, token, method == "GET" ? nullptr : &body);
}

}  // namespace sextant::integration
