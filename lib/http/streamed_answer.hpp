#pragma once
// A streamed answer (api_response::stream, e.g. a pod's logs) on one connection of http_server:
// chunked text written to the stream while a read on the same stream notices the client going
// away. Templates on the stream, so that a TLS connection streams as a plain one does.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "api/http_types.hpp"
#include "kube/asio.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant::streaming {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using kube::use_tuple;  // I/O errors as values, as the kube client awaits them

// How long one chunk of a streamed answer may take to be sent: a client that stops reading is
// let go, rather than holding the stream (and its upstream reads) open for ever.
inline constexpr auto stream_write_timeout = std::chrono::seconds(30);

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
  spawn_supervised(
      stream.get_executor(), "http-stream-client",
      [keep = std::move(keep_connection), &stream, sink] { return watch_client(keep, stream, sink); },
      on_task_failure::log_only);
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

}  // namespace sextant::streaming
