// Over 400 lines because it is one connection's whole life (admission, TLS handshake, the request
// loop, parting answers, stop) over the server's shared members; a streamed answer is in
// streamed_answer.hpp, the response head in response_head.cpp, off-loop writes in bulk_writer.cpp.
#include "http/http_server.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "http/bulk_writer.hpp"
#include "http/client_address.hpp"
#include "http/descriptor_limit.hpp"
#include "http/response_head.hpp"
#include "http/streamed_answer.hpp"
#include "http/write_in_turn.hpp"
#include "kube/asio.hpp"
#include "util/log_throttle.hpp"
#include "util/scope_guard.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using kube::use_tuple;  // I/O errors as values, as the kube client awaits them

constexpr auto tls_handshake_timeout = std::chrono::seconds(10);
// How long a refusal (503) or a last error (408) may take to be written before the connection
// closes anyway.
constexpr auto parting_write_timeout = std::chrono::seconds(2);
// Out of descriptors, accepting pauses this long at first, doubling up to the most.
constexpr auto first_accept_pause = std::chrono::milliseconds(10);
constexpr auto longest_accept_pause = std::chrono::seconds(1);
// Out of descriptors, an idle connection is closed to free one only when it has been idle this
// long: a connection just accepted, whose request is on its way, is not what should make room
// (closing it would drop the very clients that were waiting in the backlog).
constexpr auto idle_before_reclaimed_for_descriptors = std::chrono::seconds(1);

// What is read at once while waiting for a request.
constexpr std::size_t first_read_bytes = 4096;

struct http_server::session {
  explicit session(tcp::socket socket) : stream(std::move(socket)) {}
  beast::tcp_stream stream;                         // moved into `tls` when serving HTTPS
  std::shared_ptr<asio::ssl::context> tls_context;  // outlives the stream that uses it
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
  std::string client;     // client_key of the peer's address
  bool admitted = false;  // holds a slot (else it is answered 503 and closed)
  bool idle = true;       // waiting for a request, nothing of it read yet: may be closed to make room
  std::chrono::steady_clock::time_point idle_since = std::chrono::steady_clock::now();
  // Set while a streamed answer runs: ends it (the server is stopping).
  std::function<void()> end_stream;

  beast::tcp_stream& transport() { return tls ? beast::get_lowest_layer(*tls) : stream; }
  tcp::socket& socket() { return transport().socket(); }
  // Marked idle, but its next request is already in the kernel's buffer: under load the loop
  // learns of a newcomer and of that request in the same turn and may handle the newcomer first.
  // Such a connection is busy, not idle: closing it would cut off a client that did ask.
  bool request_waiting() {
    boost::system::error_code ignored;
    return socket().available(ignored) > 0;
  }
};

namespace {

// Ends a read phase that outlasts its time by cancelling the socket's operations, so that the
// server can still answer 408 (a tcp_stream's own timeout closes the socket).
class read_deadline {
 public:
  read_deadline(std::shared_ptr<void> keep_connection, tcp::socket& socket, std::chrono::seconds limit)
      : timer_(socket.get_executor()), expired_(std::make_shared<bool>(false)) {
    timer_.expires_after(limit);
    timer_.async_wait(
        [keep = std::move(keep_connection), &socket, expired = expired_](const boost::system::error_code& ec) {
          if (!ec) {
            *expired = true;
            boost::system::error_code ignored;
            socket.cancel(ignored);
          }
        });
  }
  ~read_deadline() { timer_.cancel(); }
  read_deadline(const read_deadline&) = delete;
  read_deadline& operator=(const read_deadline&) = delete;

  bool expired() const { return *expired_; }

 private:
  asio::steady_timer timer_;
  std::shared_ptr<bool> expired_;
};

// A Host field value as RFC 9110 allows it: a host name, an IPv4 address or a bracketed IPv6
// one, and an optional port; empty is allowed (a target without an authority).
bool valid_host(std::string_view host) {
  return std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("-._~!$&'()*+,;=:[]%").find(c) != std::string_view::npos;
  });
}

// Why a request head cannot be answered as it stands, or nullopt.
template <class Request>
std::optional<api_response> bad_host(const Request& request) {
  const std::size_t hosts = request.count(http::field::host);
  if ((request.version() >= 11 && hosts != 1) || hosts > 1) {
    return error_response(400, "BadRequest",
                          "an HTTP/1.1 request carries exactly one Host header (RFC 9112, section 3.2); this one has " +
                              std::to_string(hosts));
  }
  if (hosts == 1 && !valid_host(request[http::field::host])) {
    return error_response(400, "BadRequest", "the Host header is not a host name or address with an optional port");
  }
  return std::nullopt;
}

}  // namespace

http_server::http_server(asio::io_context& io, http_server_options options, handler handle)
    : io_(io), options_(std::move(options)), handle_(std::move(handle)), acceptor_(io) {}

http_server::~http_server() = default;

std::uint64_t http_server::answers_written_off_loop() const {
  return bulk_ ? bulk_->writes() : 0;
}

void http_server::start() {
  if (std::string error = ensure_descriptors(static_cast<std::size_t>(options_.max_connections)); !error.empty()) {
    throw std::runtime_error(error);
  }
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
  accept_pause_ = std::make_unique<asio::steady_timer>(io_);
  // Without its accept loop the daemon serves nobody: a failure there ends it (the kubelet restarts it).
  spawn_supervised(
      io_, "http-accept", [this] { return accept_loop(); }, on_task_failure::exit);
}

std::size_t http_server::per_client_cap() const {
  const int cap = options_.max_connections_per_client > 0 ? options_.max_connections_per_client
                                                          : std::max(1, options_.max_connections / 2);
  return static_cast<std::size_t>(cap);
}

bool http_server::admit(session& connection) {
  const std::size_t held = per_client_.contains(connection.client) ? per_client_[connection.client] : 0;
  if (held >= per_client_cap()) {
    if (!reclaim_idle(&connection.client, {})) {
      return false;
    }
  } else if (admitted_ >= static_cast<std::size_t>(options_.max_connections) && !reclaim_idle(nullptr, {})) {
    return false;
  }
  connection.admitted = true;
  ++admitted_;
  ++per_client_[connection.client];
  return true;
}

bool http_server::reclaim_idle(const std::string* client, std::chrono::steady_clock::duration idle_at_least) {
  const auto idle_before = std::chrono::steady_clock::now() - idle_at_least;
  std::shared_ptr<session> oldest;
  std::size_t oldest_holds = 0;  // connections held by `oldest`'s client
  for (const std::shared_ptr<session>& candidate : sessions_) {
    if (!candidate->admitted || !candidate->idle || candidate->idle_since > idle_before ||
        (client != nullptr && candidate->client != *client)) {
      continue;
    }
    const std::size_t holds = per_client_[candidate->client];
    const bool better =
        !oldest || holds > oldest_holds || (holds == oldest_holds && candidate->idle_since < oldest->idle_since);
    if (better && !candidate->request_waiting()) {
      oldest = candidate;
      oldest_holds = holds;
    }
  }
  if (!oldest) {
    return false;
  }
  // Closed now, which frees its descriptor at once; its coroutine sees the read fail and ends.
  release(*oldest);
  boost::system::error_code ignored;
  oldest->socket().close(ignored);
  sessions_.erase(oldest);
  ++reclaimed_;
  return true;
}

void http_server::release(session& connection) {
  if (!connection.admitted) {
    return;
  }
  connection.admitted = false;
  --admitted_;
  if (auto it = per_client_.find(connection.client); it != per_client_.end() && --it->second == 0) {
    per_client_.erase(it);
  }
}

asio::awaitable<void> http_server::accept_loop() {
  auto pause = std::chrono::steady_clock::duration::zero();
  log_throttle failures;
  while (!stopping_) {
    auto [ec, socket] = co_await acceptor_.async_accept(use_tuple);
    if (ec) {
      if (stopping_ || ec == asio::error::operation_aborted) {
        break;
      }
      ++accept_failures_;
      const bool out_of_descriptors = ec == asio::error::no_descriptors ||
                                      ec == boost::system::errc::too_many_files_open_in_system ||
                                      ec == asio::error::no_buffer_space || ec == asio::error::no_memory;
      std::uint64_t held_back = 0;
      if (failures.allow(std::chrono::steady_clock::now(), held_back)) {
        spdlog::warn("accepting a connection: {}{}{}", ec.message(),
                     out_of_descriptors ? "; pausing accepts and closing an idle connection" : "",
                     log_throttle::held_back_note(held_back));
      }
      if (out_of_descriptors) {
        // Frees a descriptor at once when a connection has been idle a while.
        reclaim_idle(nullptr, idle_before_reclaimed_for_descriptors);
      }
      // Out of descriptors, the pending connection stays in the kernel's backlog until one is
      // free: accepting again at once would fail again at once, at full speed. Any other error
      // that repeats is met the same way.
      pause = pause == pause.zero() ? std::chrono::steady_clock::duration(first_accept_pause)
                                    : std::min<std::chrono::steady_clock::duration>(2 * pause, longest_accept_pause);
      accept_pause_->expires_after(pause);
      co_await accept_pause_->async_wait(use_tuple);
      continue;
    }
    pause = pause.zero();
    // An answer leaves in several writes (its head, then its body; over TLS, record by record).
    // With Nagle's algorithm on, a last short segment waits for the ACK of the one before it,
    // which the client may delay 40 ms: over TLS every answer of a few KB took 40 ms or more.
    boost::system::error_code no_delay_error;
    socket.set_option(tcp::no_delay(true), no_delay_error);
    boost::system::error_code peer_error;
    const tcp::endpoint peer = socket.remote_endpoint(peer_error);
    auto connection = std::make_shared<session>(std::move(socket));
    connection->client = peer_error ? std::string("unknown") : client_key(peer.address());
    if (tls_) {
      tls_->refresh();
      connection->tls_context = tls_->context();
      connection->tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(connection->stream),
                                                                               *connection->tls_context);
    }
    admit(*connection);
    sessions_.insert(connection);
    spawn_supervised(
        io_, "http-connection", [this, connection] { return serve(connection); }, on_task_failure::log_only);
  }
}

asio::awaitable<void> http_server::serve(std::shared_ptr<session> connection) {
  // A handler that throws must not keep the connection's slot: close it and free the slot.
  undo_on_exception free_slot([this, connection] { finish(connection); });
  if (!connection->admitted) {
    co_await refuse(connection);
    co_return;
  }
  if (connection->tls) {
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

asio::awaitable<void> http_server::refuse(std::shared_ptr<session> connection) {
  if (!connection->tls) {
    // Over the limit: say so at once rather than leave the client hanging. (Over TLS there is
    // no handshake, so nothing the client could read.)
    http::response<http::string_body> busy{http::status::service_unavailable, 11};
    api_response envelope = error_response(503, "Unavailable", "too many connections; try again shortly");
    busy.set(http::field::content_type, envelope.content_type);
    busy.set(http::field::connection, "close");
    busy.set(http::field::retry_after, "1");
    busy.body() = envelope.body;
    busy.prepare_payload();
    connection->transport().expires_after(parting_write_timeout);
    co_await http::async_write(connection->stream, busy, use_tuple);
  }
  finish(connection);
}

template <class Stream>
asio::awaitable<void> http_server::exchange_requests(Stream& stream, std::shared_ptr<session> connection) {
  beast::flat_buffer buffer;
  std::string head_bytes;  // each answer's head, formatted into capacity kept across answers
  const auto idle_timeout = std::chrono::seconds(options_.idle_timeout_seconds);
  const auto head_timeout = std::chrono::seconds(options_.head_timeout_seconds);
  while (!stopping_) {
    if (buffer.size() == 0) {
      // Idle until the next request's first byte: this is the wait another client's new
      // connection may end (reclaim_idle), and what the idle timeout bounds.
      connection->idle = true;
      connection->idle_since = std::chrono::steady_clock::now();
      connection->transport().expires_after(idle_timeout);
      auto [wait_error, read] = co_await stream.async_read_some(buffer.prepare(first_read_bytes), use_tuple);
      buffer.commit(read);
      connection->idle = false;
      if (wait_error) {
        break;  // the client left, stayed idle too long, its slot was given to another, or the server stops
      }
    }
    connection->idle = false;
    connection->transport().expires_never();  // each phase below has its own deadline
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(std::min(options_.max_request_bytes, 16384)));
    parser.body_limit(static_cast<std::uint64_t>(options_.max_request_bytes));
    std::optional<api_response> failed;  // answered instead of handling the request
    bool quiet_end = false;              // the client went away: nothing to answer
    auto read_failed = [&](const boost::system::error_code& error, bool expired, const std::string& late) {
      if (expired) {
        failed = error_response(408, "RequestTimeout", late);
      } else if (error == http::error::body_limit) {
        failed =
            error_response(413, "BadRequest",
                           "the request body is larger than " + std::to_string(options_.max_request_bytes) + " bytes");
      } else if (error == http::error::header_limit) {
        failed = error_response(431, "BadRequest", "the request headers are too large");
      } else if (error == http::error::end_of_stream || error == asio::error::operation_aborted ||
                 error == asio::error::connection_reset || error == beast::error::timeout) {
        quiet_end = true;
      } else {
        failed = error_response(400, "BadRequest", "malformed HTTP request: " + error.message());
      }
    };
    {
      read_deadline deadline(connection, connection->socket(), head_timeout);
      auto [head_error, read] = co_await http::async_read_header(stream, buffer, parser, use_tuple);
      (void)read;
      if (head_error || deadline.expired()) {
        read_failed(head_error, deadline.expired(),
                    "the request head was not received within " + std::to_string(options_.head_timeout_seconds) +
                        " s of its first byte");
      }
    }
    if (!failed && !quiet_end) {
      failed = bad_host(parser.get());
    }
    if (!failed && !quiet_end && !parser.is_done()) {
      read_deadline deadline(connection, connection->socket(), idle_timeout);
      auto [body_error, read] = co_await http::async_read(stream, buffer, parser, use_tuple);
      (void)read;
      if (body_error || deadline.expired()) {
        const auto promised = parser.content_length();
        read_failed(body_error, deadline.expired(),
                    "the request body was not received within " + std::to_string(options_.idle_timeout_seconds) + " s" +
                        (promised ? " (Content-Length promised " + std::to_string(*promised) + " bytes)" : ""));
      }
    }
    if (quiet_end) {
      break;
    }
    api_response answer;
    bool keep_alive = false;
    unsigned version = 11;
    std::string method = "GET";
    if (failed) {
      answer = std::move(*failed);
      if (parser.is_header_done()) {
        version = parser.get().version();
        method = std::string(parser.get().method_string());
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
                       std::string(request[http::field::authorization]),
                       connection->client};
      answer = co_await handle_(std::move(call));
      if (answer.stream && method != "HEAD") {
        // A streamed answer: written as it comes, then the connection closes.
        std::optional<api_response> refused =
            co_await streaming::send_stream(stream, connection, connection->end_stream, answer, version, stopping_);
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
    if (co_await send_answer(stream, parts, failed ? parting_write_timeout : idle_timeout)) {
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
                                                                    std::array<asio::const_buffer, 2> parts,
                                                                    std::chrono::seconds timeout) {
  if (bulk_ && asio::buffer_size(parts) >= bulk_writer::min_bytes) {
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      co_return co_await bulk_->write(stream.socket(), parts, timeout);
    } else {
      co_return co_await bulk_->write(stream, parts, timeout);  // the TLS session is lent too
    }
  }
  beast::get_lowest_layer(stream).expires_after(timeout);
  if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
    auto [error, written] = co_await asio::async_write(stream, parts, use_tuple);
    (void)written;
    co_return error;
  } else {
    co_return co_await write_in_turn(stream, parts);  // not both at once: see write_in_turn.hpp
  }
}

void http_server::finish(const std::shared_ptr<session>& connection) {
  release(*connection);
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
  if (accept_pause_) {
    accept_pause_->cancel();
  }
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
