// Over 400 lines because connecting (TCP, TLS and its CA bundle's re-read, credentials and their refresh), whole
// streams share one connection pool and its counting; each part is short.
#include "kube/api_client.hpp"

#include <array>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "kube/base64.hpp"
#include "kube/tls.hpp"
#include "util/file.hpp"

namespace sextant::kube {
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

namespace {

constexpr auto connect_timeout = std::chrono::seconds(15);
constexpr auto handshake_timeout = std::chrono::seconds(15);
constexpr std::size_t max_idle_connections = 4;
constexpr std::size_t max_error_body = 64 * 1024;
// What one read of a body hands on. A TLS read yields at most one record (16 KB of plain text),
// so a larger buffer would sit unused, and every open watch holds one.
constexpr std::size_t chunk_size = 16 * 1024;

// A failure of an operation whose deadline passed: beast closes the socket then, and the TLS
// layer above it reports that as whatever it met first (a closed or bad descriptor, an aborted
// operation) rather than as a timeout.
bool deadline_error(const beast::error_code& ec) {
  return ec == beast::error::timeout || ec == net::error::bad_descriptor || ec == net::error::operation_aborted;
}

}  // namespace

api_error reply_error(int status, std::string_view body, std::string_view retry_after, const std::string& error) {
  if (status == 0) {
    return api_error{0, {}, error};
  }
  api_error out = http_error(status, body, retry_after);
  if (status == 401 && !error.empty()) {
    out.message = error + (out.message.empty() || out.message == "Unauthorized" ? "" : " (" + out.message + ")");
  }
  return out;
}

struct api_client::connection {
  connection(net::any_io_executor executor, std::shared_ptr<ssl::context> context, std::uint64_t generation)
      : tls(std::move(context)), stream(executor, *tls), tls_generation(generation) {}

  std::shared_ptr<ssl::context> tls;  // outlives the stream that refers to it
  beast::ssl_stream<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  std::uint64_t tls_generation;

  void close() {
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(stream).close();
  }
};

struct api_client::exchange {
  std::shared_ptr<connection> conn;
  std::unique_ptr<http::response_parser<http::buffer_body>> parser;
  std::uint64_t auth_generation = 0;
  bool pooled = false;
  bool timed_out = false;  // the server took the request and did not answer in time: not a stale connection
  std::string error;
};

namespace {

// Reads the body behind a parsed header in chunks.
class beast_body_stream final : public body_stream {
 public:
  beast_body_stream(std::shared_ptr<api_client::connection> conn,
                    std::unique_ptr<http::response_parser<http::buffer_body>> parser, std::chrono::seconds idle)
      : conn_(std::move(conn)), parser_(std::move(parser)), idle_(idle) {}
  ~beast_body_stream() override { conn_->close(); }

  net::awaitable<stream_chunk> read() override {
    for (;;) {
      if (cancelled_) {
        co_return stream_chunk{{}, false, false, "cancelled"};
      }
      if (parser_->is_done()) {
        co_return stream_chunk{{}, true, false, {}};
      }
      parser_->get().body().data = buffer_.data();
      parser_->get().body().size = buffer_.size();
      beast::get_lowest_layer(conn_->stream).expires_after(idle_);
      auto [ec, n] = co_await http::async_read_some(conn_->stream, conn_->buffer, *parser_, use_tuple);
      if (ec == http::error::need_buffer) {
        ec = {};
      }
      const std::size_t got = buffer_.size() - parser_->get().body().size;
      if (got > 0) {
        // Hand over what came; a failure that came with it shows at the next read.
        co_return stream_chunk{std::string_view(buffer_.data(), got), false, false, {}};
      }
      if (cancelled_) {
        co_return stream_chunk{{}, false, false, "cancelled"};
      }
      if (deadline_error(ec)) {
        co_return stream_chunk{{}, false, true, "no data for " + std::to_string(idle_.count()) + "s"};
      }
      if (ec == http::error::end_of_stream || ec == net::error::eof || ec == ssl::error::stream_truncated) {
        co_return stream_chunk{{}, parser_->is_done(), false, parser_->is_done() ? "" : "the server closed the stream"};
      }
      if (ec) {
        co_return stream_chunk{{}, false, false, ec.message()};
      }
    }
  }

  void cancel() override {
    cancelled_ = true;
    conn_->close();
  }

 private:
  std::shared_ptr<api_client::connection> conn_;
  std::unique_ptr<http::response_parser<http::buffer_body>> parser_;
  std::chrono::seconds idle_;
  std::array<char, chunk_size> buffer_{};
  bool cancelled_ = false;
};

}  // namespace

api_client::api_client(net::any_io_executor executor, connection_config config, metrics_registry& metrics,
                       const clock& wall, credential_options credentials)
    : executor_(std::move(executor)),
      config_(std::move(config)),
      metrics_(metrics),
      credentials_(executor_, config_, wall, credentials) {
  metrics_.describe(requests_metric, metrics_registry::metric_type::counter,
                    "Requests sent to the Kubernetes API server, by verb and HTTP code (\"error\": no answer).");
}

api_client::~api_client() {
  for (auto& c : idle_) {
    c->close();
  }
}

std::string api_client::init() {
  if (!config_.ca_file.empty()) {
    ca_stamp_ = stamp_of(config_.ca_file).value_or(file_stamp{});
  }
  tls_context_result context = make_tls_context(config_, config_.client_cert_pem, config_.client_key_pem);
  if (!context.value) {
    return config_.source + ": " + context.error;
  }
  tls_ = std::move(context.value);
  tls_cert_pem_ = config_.client_cert_pem;
  ++tls_generation_;
  return {};
}

bool api_client::reread_ca() {
  if (config_.ca_file.empty()) {
    return false;
  }
  std::optional<file_stamp> stamp = stamp_of(config_.ca_file);
  if (!stamp || *stamp == ca_stamp_) {
    return false;  // unchanged, or gone for a moment while it is replaced: keep the last bundle
  }
  std::string read_error;
  std::optional<std::string> text = read_file(config_.ca_file, read_error);
  if (!text) {
    return false;
  }
  ca_stamp_ = *stamp;
  if (*text == config_.ca_pem && ca_error_.empty()) {
    return false;
  }
  config_.ca_pem = std::move(*text);
  return true;
}

std::shared_ptr<ssl::context> api_client::tls_for(const auth_material& auth, std::string& error) {
  const bool ca_changed = reread_ca();
  if (!ca_changed && !ca_error_.empty()) {
    error = ca_error_;
    return nullptr;
  }
  if (!tls_ || ca_changed || auth.client_cert_pem != tls_cert_pem_) {
    // A replaced CA bundle, or a (new) client certificate from an exec plugin: later connections
    // trust and present those.
    tls_context_result context = make_tls_context(config_, auth.client_cert_pem, auth.client_key_pem);
    if (!context.value) {
      error = context.error;
      if (ca_changed) {
        ca_error_ = config_.ca_file + ": " + context.error;
        error = ca_error_;
      }
      return nullptr;
    }
    ca_error_.clear();
    tls_ = std::move(context.value);
    tls_cert_pem_ = auth.client_cert_pem;
    ++tls_generation_;
    for (auto& c : idle_) {
      c->close();
    }
    idle_.clear();
  }
  return tls_;
}

std::string api_client::refused_credentials(bool reread) const {
  return "the API server refused the credentials (401) from " + credentials_.origin() +
         (reread ? ", also once read again" : "");
}

std::string api_client::no_answer(std::chrono::seconds within, const char* during) const {
  return "no answer from " + config_.server.authority() + " within " + std::to_string(within.count()) + "s (" + during +
         ")";
}

void api_client::count(const std::string& verb, int status) {
  metrics_.increment(requests_metric, {{"verb", verb}, {"code", status == 0 ? "error" : std::to_string(status)}});
}

net::awaitable<std::string> api_client::connect(connection& c) {
  const url& hop = config_.proxy ? *config_.proxy : config_.server;
  tcp::resolver resolver(executor_);
  auto [resolve_error, endpoints] = co_await resolver.async_resolve(hop.host, hop.port, use_tuple);
  if (resolve_error) {
    co_return "cannot resolve " + hop.host + ": " + resolve_error.message();
  }
  auto& tcp_layer = beast::get_lowest_layer(c.stream);
  tcp_layer.expires_after(connect_timeout);
  auto [connect_error, endpoint] = co_await tcp_layer.async_connect(endpoints, use_tuple);
  if (connect_error) {
    co_return "cannot connect to " + hop.authority() + (config_.proxy ? " (proxy)" : "") + ": " +
        (deadline_error(connect_error) ? "no answer within " + std::to_string(connect_timeout.count()) + "s"
                                       : connect_error.message());
  }
  tcp_layer.socket().set_option(tcp::no_delay(true));
  tcp_layer.socket().set_option(net::socket_base::keep_alive(true));

  if (config_.proxy) {
    const std::string target = config_.server.authority();
    http::request<http::empty_body> request{http::verb::connect, target, 11};
    request.set(http::field::host, target);
    if (!config_.proxy->user_info.empty()) {
      request.set(http::field::proxy_authorization, "Basic " + base64_encode(config_.proxy->user_info));
    }
    auto [write_error, written] = co_await http::async_write(tcp_layer, request, use_tuple);
    if (write_error) {
      co_return "proxy " + hop.authority() + ": " + write_error.message();
    }
    beast::flat_buffer proxy_buffer;
    http::response_parser<http::empty_body> answer;
    answer.skip(true);  // a CONNECT answer has no body; the tunnel starts right after it
    auto [read_error, read] = co_await http::async_read_header(tcp_layer, proxy_buffer, answer, use_tuple);
    if (read_error) {
      co_return "proxy " + hop.authority() + " did not answer CONNECT: " + read_error.message();
    }
    if (answer.get().result_int() != 200) {
      co_return "proxy " + hop.authority() + " refused CONNECT " + target + ": " +
          std::to_string(answer.get().result_int()) + " " + std::string(answer.get().reason());
    }
  }

  if (std::string error = prepare_tls_connection(c.stream.native_handle(), config_); !error.empty()) {
    co_return error;
  }
  tcp_layer.expires_after(handshake_timeout);
  auto [handshake_error] = co_await c.stream.async_handshake(ssl::stream_base::client, use_tuple);
  if (handshake_error) {
    co_return describe_tls_failure(
        c.stream.native_handle(),
        deadline_error(handshake_error) ? no_answer(handshake_timeout, "TLS handshake") : handshake_error.message(),
        config_);
  }
  co_return std::string();
}

net::awaitable<api_client::exchange> api_client::send(const std::string& target, const std::string* post_body,
                                                      const request_options& options,
                                                      const std::shared_ptr<cancel_token>& cancel, bool allow_pooled) {
  exchange out;
  auth_result auth = co_await credentials_.current();
  if (!auth.value) {
    out.error = auth.error;
    co_return out;
  }
  out.auth_generation = auth.value->generation;
  std::string tls_error;
  std::shared_ptr<ssl::context> context = tls_for(*auth.value, tls_error);
  if (!context) {
    out.error = tls_error;
    co_return out;
  }
  if (cancel && cancel->cancelled()) {
    out.error = "cancelled";
    co_return out;
  }

  while (allow_pooled && !idle_.empty() && !out.conn) {
    std::shared_ptr<connection> candidate = std::move(idle_.back());
    idle_.pop_back();
    if (candidate->tls_generation == tls_generation_) {
      out.conn = std::move(candidate);
      out.pooled = true;
    } else {
      candidate->close();
    }
  }
  if (!out.conn) {
    out.conn = std::make_shared<connection>(executor_, context, tls_generation_);
  }
  if (cancel) {
    std::weak_ptr<connection> weak = out.conn;
    cancel->set_hook([weak] {
      if (auto c = weak.lock()) {
        c->close();
      }
    });
  }
  if (!out.pooled) {
    std::string error = co_await connect(*out.conn);
    if (!error.empty()) {
      out.error = cancel && cancel->cancelled() ? "cancelled" : error;
      co_return out;
    }
  }

  http::request<http::string_body> request{post_body ? http::verb::post : http::verb::get, config_.server.path + target,
                                           11};
  if (post_body) {
    request.set(http::field::content_type, "application/json");
    request.body() = *post_body;
    request.prepare_payload();
  }
  request.set(http::field::host, config_.server.authority());
  request.set(http::field::user_agent, "sextantd/" SEXTANT_VERSION);
  request.set(http::field::accept, options.accept);
  if (!auth.value->authorization.empty()) {
    request.set(http::field::authorization, auth.value->authorization);
  }
  request.keep_alive(true);
  auto& tcp_layer = beast::get_lowest_layer(out.conn->stream);
  tcp_layer.expires_after(options.timeout);
  auto [write_error, written] = co_await http::async_write(out.conn->stream, request, use_tuple);
  if (write_error) {
    out.error = cancel && cancel->cancelled() ? "cancelled"
                : deadline_error(write_error)
                    ? no_answer(options.timeout, "request")
                    : "sending to " + config_.server.authority() + ": " + write_error.message();
    co_return out;
  }
  out.parser = std::make_unique<http::response_parser<http::buffer_body>>();
  if (options.body_limit) {
    out.parser->body_limit(*options.body_limit);
  } else {
    out.parser->body_limit(boost::none);
  }
  auto [read_error, read] =
      co_await http::async_read_header(out.conn->stream, out.conn->buffer, *out.parser, use_tuple);
  if (read_error) {
    out.timed_out = read_error == beast::error::timeout;
    out.error = cancel && cancel->cancelled() ? "cancelled"
                : deadline_error(read_error)
                    ? no_answer(options.timeout, "answer")
                    : "reading from " + config_.server.authority() + ": " + read_error.message();
    co_return out;
  }
  co_return out;
}

net::awaitable<http_reply> api_client::get(std::string target, request_options options,
                                           std::shared_ptr<cancel_token> cancel) {
  co_return co_await whole(std::move(target), nullptr, std::move(options), std::move(cancel));
}

net::awaitable<http_reply> api_client::post(std::string target, std::string body, request_options options) {
  co_return co_await whole(std::move(target), &body, std::move(options), nullptr);
}

net::awaitable<http_reply> api_client::whole(std::string target, const std::string* post_body, request_options options,
                                             std::shared_ptr<cancel_token> cancel) {
  http_reply reply;
  bool retried_stale = false;  // a pooled connection the server had closed
  bool retried_401 = false;    // refreshed credentials get one more try
  for (;;) {
    exchange ex = co_await send(target, post_body, options, cancel, !retried_stale);
    if (!ex.parser) {
      // A pooled connection the server closed fails at once; one that timed out was heard and
      // not answered, and trying again would wait the whole timeout a second time.
      if (ex.pooled && !ex.timed_out && !retried_stale && !(cancel && cancel->cancelled())) {
        retried_stale = true;
        continue;
      }
      reply.error = ex.error;
      break;
    }
    auto& parser = *ex.parser;
    reply.status = parser.get().result_int();
    reply.content_type = std::string(parser.get()[http::field::content_type]);
    reply.retry_after = std::string(parser.get()[http::field::retry_after]);
    reply.body.clear();
    std::array<char, chunk_size> buffer{};
    beast::error_code ec;
    while (!parser.is_done()) {
      parser.get().body().data = buffer.data();
      parser.get().body().size = buffer.size();
      auto [read_error, n] = co_await http::async_read_some(ex.conn->stream, ex.conn->buffer, parser, use_tuple);
      reply.body.append(buffer.data(), buffer.size() - parser.get().body().size);
      if (read_error && read_error != http::error::need_buffer) {
        ec = read_error;
        break;
      }
    }
    if (cancel) {
      cancel->clear_hook();
    }
    if (ec) {
      reply.status = 0;
      reply.error = cancel && cancel->cancelled()   ? "cancelled"
                    : ec == http::error::body_limit ? "the answer to " + target + " is larger than the body limit"
                    : deadline_error(ec)            ? no_answer(options.timeout, "whole answer")
                                         : "reading from " + config_.server.authority() + ": " + ec.message();
      break;
    }
    if (parser.get().keep_alive() && idle_.size() < max_idle_connections) {
      idle_.push_back(std::move(ex.conn));
    } else {
      ex.conn->close();
    }
    if (reply.status == 401 && !retried_401 && credentials_.invalidate(ex.auth_generation)) {
      retried_401 = true;
      count(options.verb, reply.status);
      continue;
    }
    if (reply.status == 401) {
      reply.error = refused_credentials(retried_401);
    }
    break;
  }
  if (cancel) {
    cancel->clear_hook();
  }
  count(options.verb, reply.status);
  co_return reply;
}

net::awaitable<stream_reply> api_client::open_stream(std::string target, request_options options,
                                                     std::chrono::seconds idle_timeout,
                                                     std::shared_ptr<cancel_token> cancel) {
  stream_reply reply;
  for (int attempt = 0; attempt < 2; ++attempt) {
    exchange ex = co_await send(target, nullptr, options, cancel, false);
    if (!ex.parser) {
      reply.error = ex.error;
      break;
    }
    reply.status = ex.parser->get().result_int();
    reply.content_type = std::string(ex.parser->get()[http::field::content_type]);
    reply.retry_after = std::string(ex.parser->get()[http::field::retry_after]);
    auto stream = std::make_unique<beast_body_stream>(ex.conn, std::move(ex.parser), idle_timeout);
    if (reply.status == 200) {
      reply.stream = std::move(stream);
      break;
    }
    // A refusal: its body is a short Status.
    reply.body.clear();
    for (;;) {
      stream_chunk chunk = co_await stream->read();
      reply.body.append(chunk.data);
      if (chunk.done || !chunk.error.empty() || reply.body.size() > max_error_body) {
        break;
      }
    }
    if (reply.status == 401 && attempt == 0 && credentials_.invalidate(ex.auth_generation)) {
      count(options.verb, reply.status);
      continue;
    }
    if (reply.status == 401) {
      reply.error = refused_credentials(attempt > 0);
    }
    break;
  }
  if (cancel) {
    cancel->clear_hook();
  }
  count(options.verb, reply.status);
  co_return reply;
}

}  // namespace sextant::kube
