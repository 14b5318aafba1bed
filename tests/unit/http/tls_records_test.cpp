// Over TLS an answer that fits in one record leaves in one, head and body together (as nginx sends
// it): a second record is a second send and a second wakeup of the client. A larger answer still
// arrives whole. Records are counted on the client through OpenSSL's message callback, which
// reports each record it decrypts with its inner content type.
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <openssl/ssl.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

#include "http/http_server.hpp"
#include "http/self_signed_tls.hpp"
#include "http/write_in_turn.hpp"

using namespace sextant;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// A TLS client that sends one request and counts the application-data records it receives.
struct record_counting_client {
  record_counting_client(net::io_context& io, unsigned short port, std::string request)
      : context(net::ssl::context::tls_client), stream(io, context), to_send(std::move(request)) {
    stream.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    stream.set_verify_mode(net::ssl::verify_none);  // what is tested here is the records, not the trust
    SSL_set_msg_callback(stream.native_handle(), &record_counting_client::on_message);
    SSL_set_msg_callback_arg(stream.native_handle(), this);
    stream.async_handshake(net::ssl::stream_base::client, [this](boost::system::error_code ec) {
      if (!ec) {
        net::async_write(stream, net::buffer(to_send), [this](boost::system::error_code, std::size_t) { read_more(); });
      }
    });
  }
  static void on_message(int write_p, int, int content_type, const void* buf, std::size_t len, SSL*, void* arg) {
    // TLS 1.3 reports each record's inner content type; 23 is application data (session
    // tickets and other handshake messages after the handshake are not counted).
    if (write_p == 0 && content_type == SSL3_RT_INNER_CONTENT_TYPE && len == 1 &&
        *static_cast<const unsigned char*>(buf) == SSL3_RT_APPLICATION_DATA) {
      ++static_cast<record_counting_client*>(arg)->application_records;
    }
  }
  void read_more() {
    stream.async_read_some(net::buffer(scratch), [this](boost::system::error_code ec, std::size_t n) {
      received.append(scratch.data(), n);
      if (!ec) {
        read_more();
      }
    });
  }
  // The whole answer (head and a body of Content-Length bytes) has arrived.
  bool answered() const {
    const std::size_t head_end = received.find("\r\n\r\n");
    const std::size_t at = received.find("Content-Length: ");
    return head_end != std::string::npos && at != std::string::npos &&
           received.size() >= head_end + 4 + std::stoul(received.substr(at + 16));
  }
  std::string body() const { return received.substr(received.find("\r\n\r\n") + 4); }

  net::ssl::context context;
  net::ssl::stream<tcp::socket> stream;
  std::string to_send;
  std::array<char, 65536> scratch{};
  std::string received;
  int application_records = 0;
};

// A TLS server that answers every request with `body`, and a client that asked it once.
struct answered_over_tls {
  explicit answered_over_tls(const std::string& body)
      : shared(std::make_shared<const std::string>(body)), server(io, serving(), answer_with(shared)) {
    server.start();
    client.emplace(io, server.port(), "GET /answer HTTP/1.1\r\nHost: x\r\n\r\n");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!client->answered() && std::chrono::steady_clock::now() < deadline) {
      io.run_for(std::chrono::milliseconds(20));
    }
    io.run_for(std::chrono::milliseconds(50));  // a record that should not be there would come now
  }
  static http_server_options serving() {
    http_server_options options{"127.0.0.1", 0};
    auto made = make_self_signed_tls({"localhost", "127.0.0.1"});
    REQUIRE(std::holds_alternative<self_signed_tls>(made));
    options.tls_self_signed = std::get<self_signed_tls>(made);
    return options;
  }
  static http_server::handler answer_with(std::shared_ptr<const std::string> body) {
    return [body = std::move(body)](api_request) -> net::awaitable<api_response> {
      api_response response;
      response.shared_body = body;
      co_return response;
    };
  }

  net::io_context io;
  std::shared_ptr<const std::string> shared;
  http_server server;
  std::optional<record_counting_client> client;
};

}  // namespace

TEST_CASE("over TLS an answer that fits in one record leaves in one", "[http]") {
  const std::string body(4288, 'w');  // the one-namespace caller's Workload list at the envelope
  answered_over_tls run(body);
  REQUIRE(run.client->answered());
  CHECK(run.client->body() == body);
  CHECK(run.client->application_records == 1);
}

TEST_CASE("over TLS an answer larger than a record arrives whole, in the records it needs", "[http]") {
  std::string body;
  for (int line = 0; body.size() < tls_record_plaintext + 5000; ++line) {
    body += std::to_string(line) + "\n";
  }
  answered_over_tls run(body);
  REQUIRE(run.client->answered());
  CHECK(run.client->body() == body);
  CHECK(run.client->application_records >= 2);
}
