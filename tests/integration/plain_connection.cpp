#include "plain_connection.hpp"

#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http_exchange.hpp"
#include "kube/url.hpp"

namespace sextant::integration {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

struct plain_connection::impl {
  net::io_context io;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  kube::url base;
  std::chrono::seconds timeout{};

  void close() {
    stream.reset();
    buffer.clear();
  }
};

plain_connection::plain_connection(const std::string& base_url, std::chrono::seconds timeout)
    : impl_(std::make_unique<impl>()) {
  impl_->base = *kube::parse_url(base_url).value;
  impl_->timeout = timeout;
}

plain_connection::~plain_connection() = default;

answer plain_connection::send(const std::string& method, const std::string& path, const headers& extra,
                              const std::string* body) {
  beast::error_code ec;
  if (!impl_->stream) {
    impl_->stream.emplace(impl_->io);
    tcp::resolver resolver(impl_->io);
    impl_->stream->connect(resolver.resolve(impl_->base.host, impl_->base.port, ec), ec);
    if (ec) {
      impl_->close();
      return answer{0, {}, method + " " + path + ": connect: " + ec.message()};
    }
  }
  // A server that stopped answering must not hang the test.
  impl_->stream->expires_after(impl_->timeout);
  bool keep_alive = false;
  answer got = exchange(*impl_->stream, impl_->buffer, method, impl_->base.authority(), path, extra, body, keep_alive);
  if (!keep_alive) {
    impl_->close();
  }
  return got;
}

}  // namespace sextant::integration
