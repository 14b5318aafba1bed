// A streamed answer on the HTTP server: chunked text/plain written as the coroutine writes it,
// the connection closed after it, an error answered instead when the coroutine fails before
// writing, and the client's going away reaching the coroutine (its hook runs, writes fail).
#include "http/http_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

using namespace sextant;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

struct stream_probe {
  bool hook_ran = false;
  bool write_failed = false;
  bool ended = false;
};

// Runs `io` until `done` or a few seconds pass.
bool run_until(net::io_context& io, const std::function<bool()>& done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(20));
  }
  return done();
}

// A client on the loop: sends a GET and reads whatever comes until the server closes.
struct raw_client {
  raw_client(net::io_context& io, unsigned short port) : socket(io) {
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    const std::string request = "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n";
    net::write(socket, net::buffer(request));
    read_more();
  }
  void read_more() {
    socket.async_read_some(net::buffer(scratch), [this](boost::system::error_code ec, std::size_t n) {
      received.append(scratch.data(), n);
      if (ec) {
        closed = true;
        return;
      }
      read_more();
    });
  }
  tcp::socket socket;
  std::array<char, 4096> scratch{};
  std::string received;
  bool closed = false;
};

}  // namespace

TEST_CASE("a streamed answer is sent chunked as it is written, then the connection closes", "[http][stream]") {
  net::io_context io;
  http_server server(io, http_server_options{"127.0.0.1", 0}, [](api_request) -> net::awaitable<api_response> {
    api_response response;
    response.content_type = "text/plain; charset=utf-8";
    response.stream = [](chunk_sink& sink) -> net::awaitable<void> {
      co_await sink.write("first\n");
      co_await sink.write("second\n");
    };
    co_return response;
  });
  server.start();
  raw_client client(io, server.port());
  REQUIRE(run_until(io, [&] { return client.closed; }));
  INFO(client.received);
  CHECK(client.received.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(client.received.find("Transfer-Encoding: chunked\r\n") != std::string::npos);
  CHECK(client.received.find("Content-Type: text/plain; charset=utf-8\r\n") != std::string::npos);
  CHECK(client.received.find("\r\n6\r\nfirst\n\r\n7\r\nsecond\n\r\n0\r\n\r\n") != std::string::npos);
}

TEST_CASE("a streamed answer that fails before writing answers the error envelope instead", "[http][stream]") {
  net::io_context io;
  http_server server(io, http_server_options{"127.0.0.1", 0}, [](api_request) -> net::awaitable<api_response> {
    api_response response;
    response.stream = [](chunk_sink& sink) -> net::awaitable<void> {
      sink.fail(error_response(503, "Unavailable", "none of the logs could be read"));
      co_return;
    };
    co_return response;
  });
  server.start();
  raw_client client(io, server.port());
  REQUIRE(run_until(io, [&] { return client.closed; }));
  CHECK(client.received.starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
  CHECK(client.received.find("none of the logs could be read") != std::string::npos);
}

TEST_CASE("the client going away reaches a streamed answer: its hook runs and writes fail", "[http][stream]") {
  net::io_context io;
  auto probe = std::make_shared<stream_probe>();
  http_server server(io, http_server_options{"127.0.0.1", 0}, [probe](api_request) -> net::awaitable<api_response> {
    api_response response;
    response.stream = [probe](chunk_sink& sink) -> net::awaitable<void> {
      net::steady_timer wait(co_await net::this_coro::executor, std::chrono::hours(1));
      sink.on_gone([probe, &wait] {
        probe->hook_ran = true;
        wait.cancel();
      });
      co_await sink.write("waiting\n");
      auto [ignored] = co_await wait.async_wait(net::as_tuple(net::use_awaitable));
      (void)ignored;
      probe->write_failed = !co_await sink.write("after\n");
      probe->ended = true;
    };
    co_return response;
  });
  server.start();
  auto client = std::make_unique<raw_client>(io, server.port());
  REQUIRE(run_until(io, [&] { return client->received.find("waiting\n") != std::string::npos; }));
  CHECK_FALSE(probe->hook_ran);
  boost::system::error_code ignored;
  client->socket.shutdown(tcp::socket::shutdown_both, ignored);
  client->socket.close(ignored);
  CHECK(run_until(io, [&] { return probe->ended; }));
  CHECK(probe->hook_ran);
  CHECK(probe->write_failed);
  CHECK(run_until(io, [&] { return server.open_connections() == 0; }));
}

TEST_CASE("stopping the server ends a streamed answer at once, not after the grace period", "[http][stream]") {
  net::io_context io;
  auto probe = std::make_shared<stream_probe>();
  http_server_options options{"127.0.0.1", 0};
  options.shutdown_grace_seconds = 30;
  http_server server(io, options, [probe](api_request) -> net::awaitable<api_response> {
    api_response response;
    response.stream = [probe](chunk_sink& sink) -> net::awaitable<void> {
      net::steady_timer wait(co_await net::this_coro::executor, std::chrono::hours(1));
      sink.on_gone([probe, &wait] {
        probe->hook_ran = true;
        wait.cancel();
      });
      co_await sink.write("followed\n");
      auto [ignored] = co_await wait.async_wait(net::as_tuple(net::use_awaitable));
      (void)ignored;
      probe->ended = true;
    };
    co_return response;
  });
  server.start();
  raw_client client(io, server.port());
  REQUIRE(run_until(io, [&] { return client.received.find("followed\n") != std::string::npos; }));
  bool stopped = false;
  server.stop([&stopped] { stopped = true; });
  CHECK(run_until(io, [&] { return stopped; }));
  CHECK(probe->hook_ran);
  CHECK(probe->ended);
  CHECK(client.closed);
}
