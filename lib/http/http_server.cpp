#include "http/http_server.hpp"

#include <array>
#include <optional>
#include <type_traits>

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "http/bulk_writer.hpp"
#include "http/response_head.hpp"
#include "kube/asio.hpp"

namespace sextant {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using kube::use_tuple;  // I/O errors as values, as the kube client awaits them

namespace {
// How long one chunk of a streamed answer may take to be sent: a client that stops reading is
// let go, rather than holding the stream (and its upstream reads) open for ever.
constexpr auto stream_write_timeout = std::chrono::seconds(30);
}  // namespace

constexpr auto tls_handshake_timeout = std::chrono::seconds(10);

struct http_server::session {
  explicit session(tcp::socket socket) : stream(std::move(socket)) {}
  beast::tcp_stream stream;                         // moved into `tls` when serving HTTPS
  std::shared_ptr<asio::ssl::context> tls_context;  // outlives the stream that uses it
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
  bool idle = true;  // waiting for a request, not handling one
  // Set while a streamed answer runs: ends it (the server is stopping).
  std::function<void()> end_stream;

  beast::tcp_stream& transport() { return tls ? beast::get_lowest_layer(*tls) : stream; }
  tcp::socket& socket() { return transport().socket(); }
};

namespace {

// A streamed answer on one connection: chunked text/plain written to the stream, while a read on
// the same stream notices the client going away. The connection's timers are off meanwhile (one
// expiry applies to reads and writes alike); a timer of its own bounds each write. A template on
// the stream, so that a TLS connection streams as a plain one does.
template <typename Stream>
class connection_sink final : public chunk_sink {
 public:
  connection_sink(Stream& stream, unsigned version, std::string content_type)
      : stream_(stream), version_(version), content_type_(std::move(content_type)), deadline_(stream.get_executor()) {}

  void fail(api_response error) override {
    if (!started_ && !gone_) {
      error_ = std::move(error);
    }
  }

  asio::awaitable<bool> write(std::string text) override {
    if (gone_) {
      co_return false;
    }
    if (!started_) {
      started_ = true;
      http::response<http::empty_body> header{http::status::ok, version_};
      header.set(http::field::server, "sextantd");
      header.set(http::field::content_type, content_type_);
      header.set(http::field::cache_control, "no-cache");
      header.set("X-Content-Type-Options", "nosniff");
      header.keep_alive(false);
      header.chunked(true);
      http::response_serializer<http::empty_body> serializer(header);
      arm();
      auto [error, written] = co_await http::async_write_header(stream_, serializer, use_tuple);
      (void)written;
      deadline_.cancel();
      if (error) {
        client_gone();
        co_return false;
      }
    }
    if (text.empty()) {
      co_return !gone_;
    }
    arm();
    auto [error, written] = co_await asio::async_write(stream_, http::make_chunk(asio::buffer(text)), use_tuple);
    (void)written;
    deadline_.cancel();
    if (error) {
      client_gone();
      co_return false;
    }
    co_return !gone_;
  }

  // The last chunk, after the writer is done (nothing when the client has gone).
  asio::awaitable<void> finish() {
    if (!started_) {
      co_await write({});
    }
    if (gone_) {
      co_return;
    }
    arm();
    auto [error, written] = co_await asio::async_write(stream_, http::make_chunk_last(), use_tuple);
    (void)error;
    (void)written;
    deadline_.cancel();
  }

  bool gone() const override { return gone_; }
  void on_gone(std::function<void()> hook) override {
    if (gone_) {
      hook();
      return;
    }
    hook_ = std::move(hook);
  }
  void client_gone() {
    gone_ = true;
    if (hook_) {
      auto hook = std::move(hook_);
      hook_ = nullptr;
      hook();
    }
  }
  void forget_hook() { hook_ = nullptr; }
  std::optional<api_response>& error() { return error_; }

 private:
  void arm() {
    deadline_.expires_after(stream_write_timeout);
    deadline_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) {
        boost::system::error_code ignored;
        beast::get_lowest_layer(stream_).socket().cancel(ignored);
      }
    });
  }

  Stream& stream_;
  unsigned version_;
  std::string content_type_;
  asio::steady_timer deadline_;
  bool started_ = false;
  bool gone_ = false;
  std::function<void()> hook_;
  std::optional<api_response> error_;
};

// Reads (and drops) what the client sends while its answer streams: the read ends when the client
// closes the connection or it breaks, which ends the stream.
template <typename Stream>
asio::awaitable<void> watch_client(std::shared_ptr<void> keep_connection, Stream& stream,
                                   std::shared_ptr<connection_sink<Stream>> sink) {
  std::array<char, 1024> scratch{};
  for (;;) {
    auto [error, read] = co_await stream.async_read_some(asio::buffer(scratch), use_tuple);
    (void)read;
    if (error) {
      break;
    }
  }
  sink->client_gone();
  (void)keep_connection;
}

// Runs a streamed answer on `stream`; `end_stream` ends it meanwhile (the server stops). Returns
// the error to answer instead, when the answer failed before writing.
template <typename Stream>
asio::awaitable<std::optional<api_response>> send_stream(Stream& stream, std::shared_ptr<void> keep_connection,
                                                         std::function<void()>& end_stream, api_response& answer,
                                                         unsigned version, bool stopping) {
  auto sink = std::make_shared<connection_sink<Stream>>(stream, version, answer.content_type);
  beast::get_lowest_layer(stream).expires_never();
  asio::co_spawn(stream.get_executor(), watch_client(std::move(keep_connection), stream, sink), asio::detached);
  end_stream = [weak = std::weak_ptr<connection_sink<Stream>>(sink)] {
    if (auto live = weak.lock()) {
      live->client_gone();
    }
  };
  if (stopping) {
    sink->client_gone();
  }
  co_await answer.stream(*sink);
  sink->forget_hook();
  end_stream = nullptr;
  if (sink->error()) {
    co_return std::move(sink->error());
  }
  co_await sink->finish();
  co_return std::nullopt;
}

}  // namespace

http_server::http_server(asio::io_context& io, http_server_options options, handler handle)
    : io_(io), options_(std::move(options)), handle_(std::move(handle)), acceptor_(io) {}

http_server::~http_server() = default;

std::uint64_t http_server::answers_written_off_loop() const { return bulk_ ? bulk_->writes() : 0; }

void http_server::start() {
  if (!options_.tls_cert.empty()) {
    tls_ = std::make_unique<serving_tls>(options_.tls_cert, options_.tls_key);
  } else if (options_.tls_self_signed) {
    tls_ = std::make_unique<serving_tls>(*options_.tls_self_signed);
  }
  if (tls_) {
    if (std::string error = tls_->load(); !error.empty()) {
      throw std::runtime_error(error);
    }
  }
  boost::system::error_code ec;
  auto address = asio::ip::make_address(options_.address, ec);
  if (ec) {
    throw std::system_error(ec, "cannot listen on " + options_.address + ": not an IP address");
  }
  tcp::endpoint endpoint(address, options_.port);
  const std::string where = options_.address + ":" + std::to_string(options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) {
    acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor_.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    throw std::system_error(ec, "cannot listen on " + where);
  }
  bound_port_ = acceptor_.local_endpoint().port();
  if (options_.large_answers_off_loop) {
    bulk_ = std::make_unique<bulk_writer>();
  }
  asio::co_spawn(io_, accept_loop(), asio::detached);
}

asio::awaitable<void> http_server::accept_loop() {
  while (!stopping_) {
    auto [ec, socket] = co_await acceptor_.async_accept(use_tuple);
    if (ec) {
      if (stopping_ || ec == asio::error::operation_aborted) {
        break;
      }
      spdlog::warn("accepting a connection: {}", ec.message());
      continue;
    }
    auto connection = std::make_shared<session>(std::move(socket));
    if (tls_) {
      tls_->refresh();
      connection->tls_context = tls_->context();
      connection->tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(connection->stream),
                                                                               *connection->tls_context);
    }
    sessions_.insert(connection);
    asio::co_spawn(io_, serve(connection), asio::detached);
  }
}

asio::awaitable<void> http_server::serve(std::shared_ptr<session> connection) {
  if (connection->tls) {
    if (sessions_.size() > static_cast<std::size_t>(options_.max_connections)) {
      finish(connection);  // no handshake, so nothing the client could read
      co_return;
    }
    connection->transport().expires_after(tls_handshake_timeout);
    auto [handshake_error] = co_await connection->tls->async_handshake(asio::ssl::stream_base::server, use_tuple);
    if (handshake_error) {
      spdlog::debug("TLS handshake: {}", handshake_error.message());
      finish(connection);
      co_return;
    }
    co_await exchange_requests(*connection->tls, connection);
  } else {
    co_await exchange_requests(connection->stream, connection);
  }
}

template <class Stream>
asio::awaitable<void> http_server::exchange_requests(Stream& stream, std::shared_ptr<session> connection) {
  beast::flat_buffer buffer;
  std::string head_bytes;  // each answer's head, formatted into capacity kept across answers
  if (sessions_.size() > static_cast<std::size_t>(options_.max_connections)) {
    // Over the limit: say so at once rather than leave the client hanging.
    http::response<http::string_body> busy{http::status::service_unavailable, 11};
    api_response envelope = error_response(503, "Unavailable", "too many connections; try again shortly");
    busy.set(http::field::content_type, envelope.content_type);
    busy.set(http::field::connection, "close");
    busy.body() = envelope.body;
    busy.prepare_payload();
    connection->transport().expires_after(std::chrono::seconds(5));
    co_await http::async_write(stream, busy, use_tuple);
    finish(connection);
    co_return;
  }
  while (true) {
    connection->idle = true;
    if (stopping_) {
      break;
    }
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(std::min(options_.max_request_bytes, 16384)));
    parser.body_limit(static_cast<std::uint64_t>(options_.max_request_bytes));
    connection->transport().expires_after(std::chrono::seconds(options_.idle_timeout_seconds));
    auto [read_error, bytes] = co_await http::async_read(stream, buffer, parser, use_tuple);
    (void)bytes;
    connection->idle = false;
    api_response answer;
    bool keep_alive = false;
    unsigned version = 11;
    std::string method = "GET";
    if (read_error == http::error::body_limit) {
      answer =
          error_response(413, "BadRequest",
                         "the request body is larger than " + std::to_string(options_.max_request_bytes) + " bytes");
    } else if (read_error == http::error::header_limit) {
      answer = error_response(431, "BadRequest", "the request headers are too large");
    } else if (read_error) {
      // End of stream, timeout, reset, or a request that is not HTTP: nothing to answer.
      if (read_error != http::error::end_of_stream && read_error != beast::error::timeout &&
          read_error != asio::error::operation_aborted && read_error != asio::error::connection_reset) {
        answer = error_response(400, "BadRequest", "malformed HTTP request: " + read_error.message());
      } else {
        break;
      }
    } else {
      auto& request = parser.get();
      keep_alive = request.keep_alive() && !stopping_;
      version = request.version();
      method = std::string(request.method_string());
      api_request call{method,
                       std::string(request.target()),
                       std::string(request[http::field::if_none_match]),
                       request.body(),
                       std::string(request[http::field::accept_encoding]),
                       std::string(request[http::field::authorization])};
      answer = co_await handle_(std::move(call));
      if (answer.stream && method != "HEAD") {
        // A streamed answer: written as it comes, then the connection closes.
        std::optional<api_response> refused =
            co_await send_stream(stream, connection, connection->end_stream, answer, version, stopping_);
        if (!refused) {
          break;
        }
        answer = std::move(*refused);
        keep_alive = false;
      }
    }
    // The body is written from where it lies (a cached view's bytes are shared, not copied), after
    // a head formatted into the connection's own buffer.
    const bool head = method == "HEAD";
    const bool bodiless = answer.status == 304 || answer.status == 204;
    const std::string_view payload = head || bodiless ? std::string_view{} : answer.bytes();
    response_head shape{answer.status, version, answer.content_type, &answer.headers, keep_alive, std::nullopt};
    if (!bodiless) {
      // HEAD: the GET answer's headers, Content-Length included, and no body.
      shape.content_length = answer.bytes().size();
    }
    format_response_head(head_bytes, shape);
    const std::array<asio::const_buffer, 2> parts{asio::buffer(head_bytes), asio::buffer(payload)};
    if (co_await send_answer(stream, parts)) {
      break;
    }
    if (!keep_alive) {
      break;
    }
  }
  finish(connection);
}

template <class Stream>
asio::awaitable<boost::system::error_code> http_server::send_answer(Stream& stream,
                                                                    std::array<asio::const_buffer, 2> parts) {
  const auto timeout = std::chrono::seconds(options_.idle_timeout_seconds);
  if (bulk_ && asio::buffer_size(parts) >= bulk_writer::min_bytes) {
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      co_return co_await bulk_->write(stream.socket(), parts, timeout);
    } else {
      co_return co_await bulk_->write(stream, parts, timeout);  // the TLS session is lent too
    }
  }
  beast::get_lowest_layer(stream).expires_after(timeout);
  auto [error, written] = co_await asio::async_write(stream, parts, use_tuple);
  (void)written;
  co_return error;
}

void http_server::finish(const std::shared_ptr<session>& connection) {
  boost::system::error_code ignored;
  connection->socket().shutdown(tcp::socket::shutdown_send, ignored);
  connection->socket().close(ignored);
  sessions_.erase(connection);
  maybe_stopped();
}

void http_server::stop(std::function<void()> on_stopped) {
  if (stopping_) {
    return;
  }
  stopping_ = true;
  on_stopped_ = std::move(on_stopped);
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  // Idle connections close now; busy ones finish their request, then close (keep-alive off);
  // streamed answers end now (a followed log would never finish by itself).
  for (const auto& connection : sessions_) {
    if (connection->idle) {
      connection->socket().cancel(ignored);
    } else if (connection->end_stream) {
      connection->end_stream();
    }
  }
  grace_timer_ = std::make_unique<asio::steady_timer>(io_, std::chrono::seconds(options_.shutdown_grace_seconds));
  grace_timer_->async_wait([this](const boost::system::error_code& ec) {
    if (ec) {
      return;
    }
    for (const auto& connection : sessions_) {
      boost::system::error_code ignored_close;
      connection->socket().close(ignored_close);
    }
    if (bulk_) {
      bulk_->cancel_all();  // the sockets lent to it are closed when it gives them back
    }
  });
  maybe_stopped();
}

void http_server::maybe_stopped() {
  if (stopping_ && sessions_.empty() && on_stopped_) {
    if (grace_timer_) {
      grace_timer_->cancel();
    }
    auto done = std::move(on_stopped_);
    on_stopped_ = nullptr;
    done();
  }
}

}  // namespace sextant
