#include "admin_client.hpp"

#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "http_exchange.hpp"
#include "kube/url.hpp"
#include "plain_connection.hpp"

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
    bool keep_alive = false;
    answer got =
        exchange(*impl_->stream, impl_->buffer, method, impl_->server.authority(), path,
                 {{"Authorization", "Bearer " + impl_->token}, {"Accept", "application/json"}}, body, keep_alive);
    if (got.status == 0 && attempt == 0) {
      impl_->stream.reset();
      continue;  // the server closed an idle connection
    }
    if (!keep_alive) {
      impl_->stream.reset();
    }
    return got;
  }
  return answer{0, {}, "unreachable"};
}

namespace {

// One plain-HTTP request on a fresh connection: the control port and sextantd's own API.
answer plain_http(const std::string& method, const std::string& base_url, const std::string& path,
                  const std::string& token = {}, const std::string* body = nullptr) {
  plain_connection::headers headers;
  if (!token.empty()) {
    headers.emplace_back("Authorization", "Bearer " + token);
  }
  return plain_connection(base_url).send(method, path, headers, body);
}

}  // namespace

answer control_post(const std::string& control_url, const std::string& path) {
  return plain_http("POST", control_url, path);
}

answer http_get(const std::string& base_url, const std::string& path) {
  return plain_http("GET", base_url, path);
}

answer http_as(const std::string& token, const std::string& method, const std::string& base_url,
               const std::string& path, const std::string& body) {
  return plain_http(method, base_url, path, token, method == "GET" ? nullptr : &body);
}

}  // namespace sextant::integration
