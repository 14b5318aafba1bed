// HTTPS with --tls-cert and --tls-key: the server speaks TLS only, and a certificate replaced on
// disk is used for new connections, while a pair that does not load keeps the one in force.
#include <filesystem>
#include <fstream>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "http/http_server.hpp"

using namespace sextant;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// The fixtures' certificate and key, copied where the test may rewrite them.
struct key_pair {
  kube::testing::temp_dir dir;
  std::filesystem::path cert = dir.write("tls.crt", kube::testing::read_text(kube::testing::fixture("client.crt")));
  std::filesystem::path key = dir.write("tls.key", kube::testing::read_text(kube::testing::fixture("client.key")));
};

// GET `target` over TLS (the certificate is not verified: the fixture is a client certificate).
net::awaitable<int> tls_get(unsigned short port, std::string target) {
  auto executor = co_await net::this_coro::executor;
  net::ssl::context context(net::ssl::context::tls_client);
  context.set_verify_mode(net::ssl::verify_none);
  beast::ssl_stream<beast::tcp_stream> stream(executor, context);
  auto [connect_error] = co_await beast::get_lowest_layer(stream).async_connect(
      net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), kube::use_tuple);
  if (connect_error) {
    co_return -1;
  }
  auto [handshake_error] = co_await stream.async_handshake(net::ssl::stream_base::client, kube::use_tuple);
  if (handshake_error) {
    co_return -2;
  }
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1");
  request.keep_alive(false);
  auto [write_error, written] = co_await http::async_write(stream, request, kube::use_tuple);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  auto [read_error, read] = co_await http::async_read(stream, buffer, response, kube::use_tuple);
  co_return write_error || read_error ? -3 : static_cast<int>(response.result_int());
}

// A plain-HTTP GET, which a TLS port must not answer as HTTP.
net::awaitable<int> plain_get(unsigned short port) {
  auto executor = co_await net::this_coro::executor;
  beast::tcp_stream stream(executor);
  auto [connect_error] =
      co_await stream.async_connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), kube::use_tuple);
  http::request<http::empty_body> request{http::verb::get, "/healthz", 11};
  request.set(http::field::host, "127.0.0.1");
  auto [write_error, written] = co_await http::async_write(stream, request, kube::use_tuple);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  stream.expires_after(std::chrono::seconds(5));
  auto [read_error, read] = co_await http::async_read(stream, buffer, response, kube::use_tuple);
  co_return connect_error || write_error || read_error ? 0 : static_cast<int>(response.result_int());
}

}  // namespace

TEST_CASE("with a certificate and key the API is served over TLS only", "[tls]") {
  key_pair files;
  net::io_context io;
  http_server_options options;
  options.port = 0;
  options.tls_cert = files.cert.string();
  options.tls_key = files.key.string();
  http_server server(io, options, [](api_request) -> net::awaitable<api_response> {
    api_response ok;
    ok.body = "{}";
    co_return ok;
  });
  server.start();
  CHECK(kube::testing::run_to_end(io, tls_get(server.port(), "/api/v1/sections")) == std::optional<int>(200));
  CHECK(kube::testing::run_to_end(io, plain_get(server.port())) == std::optional<int>(0));
  bool stopped = false;
  server.stop([&stopped] { stopped = true; });
  io.run_for(std::chrono::seconds(2));
  CHECK(stopped);
}

TEST_CASE("a TLS pair that does not load stops the start, and a bad renewal keeps the pair in force", "[tls]") {
  key_pair files;
  serving_tls tls(files.cert, files.key);
  REQUIRE(tls.load().empty());
  auto first = tls.context();
  CHECK(tls.loads() == 1);

  tls.refresh(std::chrono::seconds(0));  // nothing changed: nothing loaded
  CHECK(tls.loads() == 1);

  std::ofstream(files.cert, std::ios::trunc) << "not a certificate\n";
  tls.refresh(std::chrono::seconds(0));
  CHECK(tls.context() == first);
  CHECK(tls.loads() == 1);

  files.dir.write("tls.crt", kube::testing::read_text(kube::testing::fixture("client.crt")) + "\n");
  tls.refresh(std::chrono::seconds(0));
  CHECK(tls.loads() == 2);
  CHECK(tls.context() != first);

  serving_tls wrong_key(files.cert,
                        files.dir.write("other.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
  CHECK_THAT(wrong_key.load(), Catch::Contains("--tls-key"));
  serving_tls missing(files.dir.path() / "none.crt", files.key);
  CHECK_THAT(missing.load(), Catch::Contains("--tls-cert"));
}
