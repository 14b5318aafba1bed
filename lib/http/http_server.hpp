#pragma once
// The HTTP/1.1 server: Beast on the daemon's one io_context, a coroutine per connection. With
// `large_answers_off_loop`, the bytes of a large answer are written by bulk_writer's thread.
//
// Bounded: at most `max_connections` at once (more get 503 and are closed), requests larger
// than `max_request_bytes` get 413/431, idle keep-alive connections close after the idle
// timeout. `stop()` closes the listener, lets requests in flight finish, closes idle
// connections at once and any left after the grace period. With a certificate and key it
// serves HTTPS only, and picks up a renewed certificate for new connections; or HTTPS with a
// certificate the daemon made.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "api/http_types.hpp"
#include "http/serving_tls.hpp"

namespace sextant {

class bulk_writer;

struct http_server_options {
  std::string address = "127.0.0.1";
  unsigned short port = 8080;
  int max_connections = 256;
  int max_request_bytes = 65536;
  int idle_timeout_seconds = 30;
  int shutdown_grace_seconds = 5;
  // Both set: HTTPS with this certificate chain and key (serving_tls reloads them on change).
  std::string tls_cert = {};
  std::string tls_key = {};
  // Else, when set: HTTPS with the certificate the daemon made (--tls=self-signed).
  std::optional<self_signed_tls> tls_self_signed = {};
  // Answers of bulk_writer::min_bytes (256 KB) and more are written on a thread of their own
  // (over TLS too: encrypted there), so that the loop's other connections, probes among them, do
  // not wait behind them.
  bool large_answers_off_loop = false;
};

class http_server {
 public:
  // Answers one request; may suspend (a long render yields to the loop between slices).
  using handler = std::function<boost::asio::awaitable<api_response>(api_request)>;

  http_server(boost::asio::io_context& io, http_server_options options, handler handle);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  // Binds and listens; throws std::system_error naming the address when it cannot.
  void start();
  // The port actually bound (useful with port 0).
  unsigned short port() const { return bound_port_; }
  // Begins a graceful stop; `on_stopped` runs once every connection is closed.
  void stop(std::function<void()> on_stopped);

  std::size_t open_connections() const { return sessions_.size(); }
  // Answers written off the loop by the bulk writer so far.
  std::uint64_t answers_written_off_loop() const;

 private:
  struct session;
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> serve(std::shared_ptr<session> connection);
  template <class Stream>
  boost::asio::awaitable<void> exchange_requests(Stream& stream, std::shared_ptr<session> connection);
  template <class Stream>
  boost::asio::awaitable<boost::system::error_code> send_answer(Stream& stream,
                                                                std::array<boost::asio::const_buffer, 2> parts);
  void finish(const std::shared_ptr<session>& connection);
  void maybe_stopped();

  boost::asio::io_context& io_;
  http_server_options options_;
  handler handle_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::set<std::shared_ptr<session>> sessions_;
  unsigned short bound_port_ = 0;
  bool stopping_ = false;
  std::function<void()> on_stopped_;
  std::unique_ptr<boost::asio::steady_timer> grace_timer_;
  std::unique_ptr<serving_tls> tls_;   // set when serving HTTPS
  std::unique_ptr<bulk_writer> bulk_;  // set with large_answers_off_loop
};

}  // namespace sextant
