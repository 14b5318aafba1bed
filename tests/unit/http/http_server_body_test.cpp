// A body larger than a socket's send buffer (the 2 MB lists are written over many partial
// writes) arrives whole and in order, and the connection then serves the next request it carries.
#include "http/http_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>
#include <thread>

using namespace sextant;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// Bytes that differ from line to line, so a part sent twice or out of order shows.
std::string numbered_body(std::size_t size) {
  std::string body;
  body.reserve(size);
  for (std::size_t line = 0; body.size() < size; ++line) {
    body += std::to_string(line);
    body += '\n';
  }
  body.resize(size);
  return body;
}

// Reads one answer with a Content-Length from a blocking socket: its headers and body.
std::pair<std::string, std::string> read_answer(tcp::socket& socket, std::string& pending) {
  net::read_until(socket, net::dynamic_buffer(pending), "\r\n\r\n");
  const std::size_t header_end = pending.find("\r\n\r\n") + 4;
  std::string headers = pending.substr(0, header_end);
  const std::size_t at = headers.find("Content-Length: ");
  REQUIRE(at != std::string::npos);
  const std::size_t length = std::stoul(headers.substr(at + 16));
  if (pending.size() < header_end + length) {
    std::string rest(header_end + length - pending.size(), '\0');
    net::read(socket, net::buffer(rest));
    pending += rest;
  }
  std::string body = pending.substr(header_end, length);
  pending.erase(0, header_end + length);
  return {headers, body};
}

}  // namespace

TEST_CASE("a body of megabytes arrives whole, and the connection serves the next request after it", "[http]") {
  const auto big = std::make_shared<const std::string>(numbered_body(3 * 1024 * 1024 + 17));
  net::io_context io;
  http_server server(io, http_server_options{"127.0.0.1", 0}, [big](api_request call) -> net::awaitable<api_response> {
    api_response response;
    if (call.target == "/big") {
      response.shared_body = big;
    } else {
      response.body = "small";
    }
    co_return response;
  });
  server.start();
  const unsigned short port = server.port();
  std::thread loop([&io] { io.run_for(std::chrono::seconds(10)); });

  net::io_context client_io;
  tcp::socket socket(client_io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  const std::string requests = "GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n";
  net::write(socket, net::buffer(requests));
  std::string pending;
  auto [big_headers, big_body] = read_answer(socket, pending);
  auto [small_headers, small_body] = read_answer(socket, pending);
  socket.close();
  io.stop();
  loop.join();

  CHECK(big_headers.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(big_body.size() == big->size());
  CHECK(big_body == *big);
  CHECK(small_headers.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(small_body == "small");
}
