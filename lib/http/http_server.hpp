#pragma once
// The HTTP/1.1 server: Beast on the daemon's one io_context, a coroutine per connection. With
// `large_answers_off_loop`, the bytes of a large answer are written by bulk_writer's thread.
//
// Bounded, and fair to every client (README "Reliability"):
// - at most `max_connections` at once. When they are all taken, the connection idle longest
//   (waiting for its next request, nothing of it read) is closed to make room, as nginx drains
//   its keep-alive connections; only when none is idle is the new one answered 503 and closed.
//   One client (an address, an IPv6 /64) holds at most `max_connections_per_client`: past it,
//   its own idle connection longest idle makes room, else it gets the 503;
// - a request's head must arrive within `head_timeout_seconds` of its first byte, its body
//   within `idle_timeout_seconds`: past either the client gets 408 and the connection closes;
//   an idle keep-alive connection closes after `idle_timeout_seconds`;
// - requests larger than `max_request_bytes` get 413/431; an HTTP/1.1 request without exactly
//   one valid Host gets 400 (RFC 9112, section 3.2);
// - out of file descriptors (EMFILE, ENFILE), accepting pauses with a growing backoff (10 ms to
//   1 s) and a connection idle for a second or more is closed to free one, rather than spinning; the failure is
//   logged once per 10 s with the count of repeats.
// `stop()` closes the listener, lets requests in flight finish, closes idle connections at once
// and any left after the grace period. With a certificate and key it serves HTTPS only, and
// picks up a renewed certificate for new connections; or HTTPS with a certificate the daemon made.
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
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
  // Seconds a request's head may take from its first byte (the idle timeout bounds the body).
  int head_timeout_seconds = 10;
  // Connections one client may hold at once; 0: half of max_connections.
  int max_connections_per_client = 0;
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
  // Accepts that failed (descriptors out, and the like) since start.
  std::uint64_t accept_failures() const { return accept_failures_; }
  // Idle connections closed to make room for new ones.
  std::uint64_t reclaimed_connections() const { return reclaimed_; }

 private:
  struct session;
  // Takes a slot for a new connection from `client`, closing an idle one to make room when
  // needed; false when there is none to close.
  bool admit(session& connection);
  // Closes an idle connection that has been idle at least `idle_at_least`: of `client` only when
  // given, else of the client holding the most connections (so that many idle sockets from one
  // address pay for a newcomer, not a client with one); the one idle longest among those. False
  // when there is none.
  bool reclaim_idle(const std::string* client, std::chrono::steady_clock::duration idle_at_least);
  // Gives back the connection's slot (once).
  void release(session& connection);
  std::size_t per_client_cap() const;
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> refuse(std::shared_ptr<session> connection);
  boost::asio::awaitable<void> serve(std::shared_ptr<session> connection);
  template <class Stream>
  boost::asio::awaitable<void> exchange_requests(Stream& stream, std::shared_ptr<session> connection);
  template <class Stream>
  boost::asio::awaitable<boost::system::error_code> send_answer(Stream& stream,
                                                                std::array<boost::asio::const_buffer, 2> parts,
                                                                std::chrono::seconds timeout);
  void finish(const std::shared_ptr<session>& connection);
  void maybe_stopped();

  boost::asio::io_context& io_;
  http_server_options options_;
  handler handle_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::set<std::shared_ptr<session>> sessions_;
  std::size_t admitted_ = 0;                       // sessions holding a slot (not the ones being refused)
  std::map<std::string, std::size_t> per_client_;  // slots held, by client
  std::uint64_t accept_failures_ = 0;
  std::uint64_t reclaimed_ = 0;
  std::unique_ptr<boost::asio::steady_timer> accept_pause_;
  unsigned short bound_port_ = 0;
  bool stopping_ = false;
  std::function<void()> on_stopped_;
  std::unique_ptr<boost::asio::steady_timer> grace_timer_;
  std::unique_ptr<serving_tls> tls_;   // set when serving HTTPS
  std::unique_ptr<bulk_writer> bulk_;  // set with large_answers_off_loop
};

}  // namespace sextant
