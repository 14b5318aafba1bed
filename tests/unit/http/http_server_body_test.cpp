// A body larger than a socket's send buffer (the 2 MB lists are written over many partial
// writes) arrives whole and in order, and the connection then serves the next request it carries.
// Each test runs over plain HTTP and over TLS, with the bulk writer on and off.
#include "http/http_server.hpp"

#include <array>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

#include "http/self_signed_tls.hpp"

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

struct answer {
  std::string headers;
  std::string body;
};

// The complete answers (each with a Content-Length) at the front of what a client received.
std::vector<answer> complete_answers(std::string_view received) {
  std::vector<answer> answers;
  for (;;) {
    const std::size_t header_end = received.find("\r\n\r\n");
    if (header_end == std::string_view::npos) {
      return answers;
    }
    std::string headers(received.substr(0, header_end + 4));
    const std::size_t at = headers.find("Content-Length: ");
    if (at == std::string::npos) {
      return answers;
    }
    const std::size_t length = std::stoul(headers.substr(at + 16));
    if (received.size() < headers.size() + length) {
      return answers;
    }
    answers.push_back({headers, std::string(received.substr(headers.size(), length))});
    received.remove_prefix(headers.size() + length);
  }
}

// A client on the server's loop: sends its requests at once (over TLS after the handshake) and
// keeps what comes back, or, not `reading`, never reads a byte.
struct pipelining_client {
  pipelining_client(net::io_context& io, unsigned short port, std::string to_send, bool over_tls,
                    bool reads_answers = true)
      : context(net::ssl::context::tls_client),
        stream(io, context),
        requests(std::move(to_send)),
        tls(over_tls),
        reading(reads_answers) {
    stream.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    if (!tls) {
      send();
      return;
    }
    stream.set_verify_mode(net::ssl::verify_none);  // what is tested here is the bytes, not the trust
    stream.async_handshake(net::ssl::stream_base::client, [this](boost::system::error_code ec) {
      if (!ec) {
        send();
      }
    });
  }
  void send() {
    auto sent = [this](boost::system::error_code ec, std::size_t) {
      if (!ec && reading) {
        read_more();
      }
    };
    if (tls) {
      net::async_write(stream, net::buffer(requests), sent);
    } else {
      net::async_write(stream.next_layer(), net::buffer(requests), sent);
    }
  }
  void read_more() {
    auto read = [this](boost::system::error_code ec, std::size_t n) {
      received.append(scratch.data(), n);
      if (!ec) {
        read_more();
      }
    };
    if (tls) {
      stream.async_read_some(net::buffer(scratch), read);
    } else {
      stream.next_layer().async_read_some(net::buffer(scratch), read);
    }
  }
  net::ssl::context context;
  net::ssl::stream<tcp::socket> stream;
  std::string requests;
  bool tls;
  bool reading;
  std::array<char, 65536> scratch{};
  std::string received;
};

// Server options: plain HTTP, or TLS with a certificate made for the test; the bulk writer on or off.
http_server_options serving(bool tls, bool off_loop) {
  http_server_options options{"127.0.0.1", 0};
  options.large_answers_off_loop = off_loop;
  if (tls) {
    auto made = make_self_signed_tls({"localhost", "127.0.0.1"});
    REQUIRE(std::holds_alternative<self_signed_tls>(made));
    options.tls_self_signed = std::get<self_signed_tls>(made);
  }
  return options;
}

// Answers `path` with `body` (shared, as a cached view's), and any other path with "small".
http_server::handler one_large_answer(std::string path, std::shared_ptr<const std::string> body) {
  return [path = std::move(path), body = std::move(body)](api_request call) -> net::awaitable<api_response> {
    api_response response;
    if (call.target == path) {
      response.shared_body = body;
    } else {
      response.body = "small";
    }
    co_return response;
  };
}

}  // namespace

TEST_CASE("a body of megabytes arrives whole, and the connection serves the next request after it", "[http]") {
  const auto big = std::make_shared<const std::string>(numbered_body(3 * 1024 * 1024 + 17));
  const bool tls = GENERATE(false, true);
  // Written by the loop, or lent to the bulk writer's thread (over TLS with its session) and given
  // back for the next request.
  const bool off_loop = GENERATE(false, true);
  CAPTURE(tls, off_loop);
  net::io_context io;
  http_server server(io, serving(tls, off_loop), one_large_answer("/big", big));
  server.start();
  pipelining_client client(io, server.port(),
                           "GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n", tls);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (complete_answers(client.received).size() < 2 && std::chrono::steady_clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(20));
  }
  const std::vector<answer> answers = complete_answers(client.received);
  REQUIRE(answers.size() == 2);
  const auto& [big_headers, big_body] = answers[0];
  const auto& [small_headers, small_body] = answers[1];
  CHECK(big_headers.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(big_body.size() == big->size());
  CHECK(big_body == *big);
  CHECK(small_headers.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(small_body == "small");
  CHECK(server.answers_written_off_loop() == (off_loop ? 1 : 0));
}

namespace {

// A server whose /huge answer is larger than any socket buffer, and a client that asks for it and
// never reads: the write stalls until something ends it. Any other path answers "small".
struct stalled_answer {
  explicit stalled_answer(http_server_options options)
      : huge(std::make_shared<const std::string>(64 * 1024 * 1024, 'x')),
        server(io, options, one_large_answer("/huge", huge)),
        tls(options.tls_self_signed.has_value()),
        silent(io, server_started(server), "GET /huge HTTP/1.1\r\nHost: x\r\n\r\n", tls, false) {
    run_until([&] { return server.answers_written_off_loop() > 0 || !options.large_answers_off_loop; });
    io.run_for(std::chrono::milliseconds(200));  // the answer is being written, and stalls
  }
  static unsigned short server_started(http_server& server) {
    server.start();
    return server.port();
  }
  // Runs the loop until `done` or 10 s have passed.
  template <typename Condition>
  void run_until(Condition done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      io.run_for(std::chrono::milliseconds(20));
    }
  }

  net::io_context io;
  std::shared_ptr<const std::string> huge;
  http_server server;
  bool tls;
  pipelining_client silent;
};

http_server_options with_bulk_writer(bool tls, bool off_loop, int idle_timeout_seconds, int shutdown_grace_seconds) {
  http_server_options options = serving(tls, off_loop);
  options.idle_timeout_seconds = idle_timeout_seconds;
  options.shutdown_grace_seconds = shutdown_grace_seconds;
  return options;
}

}  // namespace

TEST_CASE("stopping ends a large answer that a client does not read, after the grace period", "[http]") {
  // An idle timeout far beyond the deadline: only the stop may end the write.
  const bool tls = GENERATE(false, true);
  const bool off_loop = GENERATE(false, true);
  CAPTURE(tls, off_loop);
  stalled_answer stalled(with_bulk_writer(tls, off_loop, 60, 1));
  REQUIRE(stalled.server.open_connections() == 1);
  bool stopped = false;
  stalled.server.stop([&] { stopped = true; });
  stalled.run_until([&] { return stopped; });
  CHECK(stopped);
  CHECK(stalled.server.open_connections() == 0);
}

TEST_CASE("a large answer that a client stops reading is given up after the idle timeout", "[http]") {
  const bool tls = GENERATE(false, true);
  const bool off_loop = GENERATE(false, true);
  CAPTURE(tls, off_loop);
  stalled_answer stalled(with_bulk_writer(tls, off_loop, 1, 5));
  REQUIRE(stalled.server.open_connections() == 1);
  stalled.run_until([&] { return stalled.server.open_connections() == 0; });
  CHECK(stalled.server.open_connections() == 0);
  // The server still answers: the loop and the writer are free of the connection given up.
  pipelining_client next(stalled.io, stalled.server.port(),
                         "GET /again HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", tls);
  stalled.run_until([&] { return !complete_answers(next.received).empty(); });
  REQUIRE(complete_answers(next.received).size() == 1);
  CHECK(complete_answers(next.received)[0].body == "small");
}
