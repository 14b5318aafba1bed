// A handler that throws (issue 32): the connection is closed and its slot freed, the failure is
// logged and counted, and the server goes on serving everyone else. With Asio's `detached` the
// exception vanished and the slot stayed taken: 256 such requests locked every client out.
#include <array>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

#include "http/http_server.hpp"
#include "util/supervised_spawn.hpp"

using namespace sextant;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

std::string exchange(net::io_context& io, unsigned short port, std::string_view request) {
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  net::write(socket, net::buffer(request));
  std::string received;
  std::array<char, 4096> scratch{};
  bool done = false;
  std::function<void()> read_more = [&] {
    socket.async_read_some(net::buffer(scratch), [&](boost::system::error_code ec, std::size_t n) {
      received.append(scratch.data(), n);
      if (ec || received.find("\r\n\r\n") != std::string::npos) {
        done = true;
        return;
      }
      read_more();
    });
  };
  read_more();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done && std::chrono::steady_clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(10));
  }
  return received;
}

}  // namespace

TEST_CASE("a handler that throws frees its connection's slot and is counted; the server serves on",
          "[http][supervision]") {
  http_server_options options{"127.0.0.1", 0};
  options.max_connections = 2;
  net::io_context io;
  http_server server(io, options, [](api_request call) -> net::awaitable<api_response> {
    if (call.target == "/throw") {
      throw std::runtime_error("a view's bug");
    }
    api_response response;
    response.body = "fine";
    co_return response;
  });
  server.start();
  for (int i = 0; i < 5; ++i) {  // more than the two slots: each must be given back
    exchange(io, server.port(), "GET /throw HTTP/1.1\r\nHost: x\r\n\r\n");
    io.run_for(std::chrono::milliseconds(20));
    CHECK(server.open_connections() == 0);
  }
  CHECK(supervisor_of(io).failures().at("http-connection") == 5);
  const std::string answer = exchange(io, server.port(), "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 200 OK"));
}
