// HTTPS with --tls-cert and --tls-key: the server speaks TLS only, and a certificate replaced on
// disk is used for new connections, while a pair that does not load keeps the one in force. With
// --tls=self-signed: a certificate the daemon makes, which a client trusting its CA verifies.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include <signal.h>
#include <variant>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "http/http_server.hpp"
#include "http/self_signed_tls.hpp"
#include "support/daemon_process.hpp"

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
  // Server options serving this pair on a free loopback port.
  http_server_options serving() const {
    http_server_options options;
    options.port = 0;
    options.tls_cert = cert.string();
    options.tls_key = key.string();
    return options;
  }
};

// GET `target` over TLS (the certificate is not verified: the fixture is a client certificate),
// from a client whose context `limit` may narrow (versions, suites).
net::awaitable<int> tls_get(unsigned short port, std::string target, std::function<void(SSL_CTX*)> limit = {}) {
  auto executor = co_await net::this_coro::executor;
  net::ssl::context context(net::ssl::context::tls_client);
  context.set_verify_mode(net::ssl::verify_none);
  if (limit) {
    limit(context.native_handle());
  }
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

// Answers every request 200 with "{}".
http_server::handler empty_json() {
  return [](api_request) -> net::awaitable<api_response> {
    api_response ok;
    ok.body = "{}";
    co_return ok;
  };
}

// Stops `server` and runs `io` until it has; whether it did within 2 s.
bool stopped(http_server& server, net::io_context& io) {
  bool done = false;
  server.stop([&done] { done = true; });
  io.run_for(std::chrono::seconds(2));
  return done;
}

}  // namespace

TEST_CASE("with a certificate and key the API is served over TLS only", "[tls]") {
  key_pair files;
  net::io_context io;
  http_server server(io, files.serving(), empty_json());
  server.start();
  CHECK(kube::testing::run_to_end(io, tls_get(server.port(), "/api/v1/sections")) == std::optional<int>(200));
  CHECK(kube::testing::run_to_end(io, plain_get(server.port())) == std::optional<int>(0));
  CHECK(stopped(server, io));
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

namespace {

// GET `target` over TLS from a client that trusts `ca_pem` alone and checks that the certificate
// names `host`: the HTTP status, or -2 when the handshake (and so the verification) fails.
net::awaitable<int> verified_get(unsigned short port, std::string ca_pem, std::string host, std::string target,
                                 std::string* body = nullptr) {
  auto executor = co_await net::this_coro::executor;
  net::ssl::context context(net::ssl::context::tls_client);
  context.add_certificate_authority(net::buffer(ca_pem));
  context.set_verify_mode(net::ssl::verify_peer);
  beast::ssl_stream<beast::tcp_stream> stream(executor, context);
  stream.set_verify_callback(net::ssl::host_name_verification(host));
  auto [connect_error] = co_await beast::get_lowest_layer(stream).async_connect(
      net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), kube::use_tuple);
  if (connect_error) {
    co_return -1;
  }
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(5));
  auto [handshake_error] = co_await stream.async_handshake(net::ssl::stream_base::client, kube::use_tuple);
  if (handshake_error) {
    co_return -2;
  }
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, host);
  request.keep_alive(false);
  auto [write_error, written] = co_await http::async_write(stream, request, kube::use_tuple);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  auto [read_error, read] = co_await http::async_read(stream, buffer, response, kube::use_tuple);
  if (body != nullptr) {
    *body = response.body();
  }
  co_return write_error || read_error ? -3 : static_cast<int>(response.result_int());
}

std::vector<std::string> subject_alternative_names(const std::string& pem) {
  std::vector<std::string> names;
  BIO* in = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(in, nullptr, nullptr, nullptr);
  BIO_free(in);
  if (cert == nullptr) {
    return names;
  }
  auto* alternatives = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; alternatives != nullptr && i < sk_GENERAL_NAME_num(alternatives); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(alternatives, i);
    if (name->type == GEN_DNS) {
      names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(name->d.dNSName)),
                         static_cast<std::size_t>(ASN1_STRING_length(name->d.dNSName)));
    } else if (name->type == GEN_IPADD) {
      names.push_back("IP:" + std::to_string(ASN1_STRING_length(name->d.iPAddress)) + " bytes");
    }
  }
  GENERAL_NAMES_free(alternatives);
  X509_free(cert);
  return names;
}

}  // namespace

TEST_CASE("a self-signed start: a client that trusts only the published CA verifies the server", "[tls]") {
  auto made = make_self_signed_tls(self_signed_names({"sextantd.sextant.svc", "10.1.2.3"}));
  REQUIRE(std::holds_alternative<self_signed_tls>(made));
  const self_signed_tls own = std::get<self_signed_tls>(made);
  CHECK(own.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
  CHECK(own.chain_pem.ends_with(own.ca_pem));  // the serving certificate, then the CA
  CHECK(own.ca_sha256.size() == 32 * 3 - 1);
  const std::vector<std::string> names = subject_alternative_names(own.chain_pem);
  CHECK(std::find(names.begin(), names.end(), "localhost") != names.end());
  CHECK(std::find(names.begin(), names.end(), "sextantd.sextant.svc") != names.end());
  CHECK(std::count(names.begin(), names.end(), "IP:4 bytes") == 2);   // 127.0.0.1, 10.1.2.3
  CHECK(std::count(names.begin(), names.end(), "IP:16 bytes") == 1);  // ::1

  net::io_context io;
  http_server_options options;
  options.port = 0;
  options.tls_self_signed = own;
  http_server server(io, options, empty_json());
  server.start();
  for (const char* host : {"localhost", "127.0.0.1", "sextantd.sextant.svc"}) {
    CAPTURE(host);
    CHECK(kube::testing::run_to_end(io, verified_get(server.port(), own.ca_pem, host, "/healthz")) ==
          std::optional<int>(200));
  }
  // A name the certificate does not carry, and a CA of another run, are refused.
  CHECK(kube::testing::run_to_end(io, verified_get(server.port(), own.ca_pem, "elsewhere.example", "/healthz")) ==
        std::optional<int>(-2));
  auto other = make_self_signed_tls({"localhost"});
  REQUIRE(std::holds_alternative<self_signed_tls>(other));
  CHECK(std::get<self_signed_tls>(other).ca_pem != own.ca_pem);
  CHECK(kube::testing::run_to_end(io, verified_get(server.port(), std::get<self_signed_tls>(other).ca_pem, "localhost",
                                                   "/healthz")) == std::optional<int>(-2));
  CHECK(stopped(server, io));
}

TEST_CASE("a self-signed certificate refuses names that are neither DNS names nor IP addresses", "[tls]") {
  CHECK(check_certificate_name("sextantd.sextant.svc.cluster.local").empty());
  CHECK(check_certificate_name("*.sextant.svc").empty());
  CHECK(check_certificate_name("fd00::1").empty());
  CHECK_FALSE(check_certificate_name("").empty());
  CHECK_FALSE(check_certificate_name("a..b").empty());
  CHECK_FALSE(check_certificate_name("-a.b").empty());
  CHECK_FALSE(check_certificate_name("a b").empty());
  CHECK_FALSE(check_certificate_name(std::string(64, 'a')).empty());
  auto refused = make_self_signed_tls({"localhost", "bad name"});
  REQUIRE(std::holds_alternative<std::string>(refused));
  CHECK_THAT(std::get<std::string>(refused), Catch::Contains("\"bad name\""));
}

TEST_CASE("the server speaks TLS 1.2 and later with forward-secret AEAD suites, and refuses renegotiation", "[tls]") {
  key_pair files;
  net::io_context io;
  http_server server(io, files.serving(), empty_json());
  server.start();
  auto get_with = [&](std::function<void(SSL_CTX*)> limit) {
    return kube::testing::run_to_end(io, tls_get(server.port(), "/healthz", std::move(limit)));
  };
  auto only = [](int version, const char* ciphers) {
    return [version, ciphers](SSL_CTX* client) {
      SSL_CTX_set_min_proto_version(client, version);
      SSL_CTX_set_max_proto_version(client, version);
      SSL_CTX_set_cipher_list(client, ciphers);  // SECLEVEL=0: the client may offer what the server must refuse
    };
  };
  CHECK(get_with({}) == std::optional<int>(200));  // TLS 1.3
  CHECK(get_with(only(TLS1_2_VERSION, "ECDHE-ECDSA-AES128-GCM-SHA256")) == std::optional<int>(200));
  CHECK(get_with(only(TLS1_1_VERSION, "DEFAULT:@SECLEVEL=0")) == std::optional<int>(-2));
  CHECK(get_with(only(TLS1_VERSION, "DEFAULT:@SECLEVEL=0")) == std::optional<int>(-2));
  // TLS 1.2 with a CBC suite, which OpenSSL's defaults still offer: refused.
  CHECK(get_with(only(TLS1_2_VERSION, "ECDHE-ECDSA-AES128-SHA:@SECLEVEL=0")) == std::optional<int>(-2));

  // Renegotiation (TLS 1.2's only way for a write to need a read, which bulk_writer relies on
  // never happening) and compression are off in every context the server makes.
  serving_tls tls(files.cert, files.key);
  REQUIRE(tls.load().empty());
  SSL_CTX* native = tls.context()->native_handle();
  CHECK((SSL_CTX_get_options(native) & SSL_OP_NO_RENEGOTIATION) != 0);
  CHECK((SSL_CTX_get_options(native) & SSL_OP_NO_COMPRESSION) != 0);
  CHECK(SSL_CTX_get_min_proto_version(native) == TLS1_2_VERSION);
  CHECK(stopped(server, io));
}

TEST_CASE("a private key file other users may read is named, with the mode that keeps it private", "[tls]") {
  key_pair files;
  std::filesystem::permissions(files.key, std::filesystem::perms(0600));
  CHECK(key_file_exposure(files.key).empty());
  std::filesystem::permissions(files.key, std::filesystem::perms(0440));
  CHECK(key_file_exposure(files.key).empty());
  std::filesystem::permissions(files.key, std::filesystem::perms(0644));
  CHECK_THAT(key_file_exposure(files.key),
             Catch::Contains(files.key.string()) && Catch::Contains("0644") && Catch::Contains("0600"));
  // Served all the same (a Secret volume's default mode is 0644): a warning, not a refusal.
  serving_tls tls(files.cert, files.key);
  CHECK(tls.load().empty());
}

TEST_CASE("sextantd --tls=self-signed serves HTTPS that the CA it publishes verifies, with its fingerprint logged",
          "[tls][e2e]") {
  kube::testing::temp_dir dir;
  const std::filesystem::path ca_file = dir.path() / "ca.crt";
  const std::filesystem::path snapshot = dir.path() / "snapshot";
  std::filesystem::create_directories(snapshot);
  testing::daemon_process daemon({"--snapshot", snapshot.string(), "--tls=self-signed", "--tls-san", "sextantd.test",
                                  "--tls-ca-file", ca_file.string(), "--log-format", "text"},
                                 testing::daemon_process::no_wait{});
  REQUIRE(daemon.wait_for_log("serving the API on https://", std::chrono::seconds(30)));
  const std::string ca = kube::testing::read_text(ca_file);
  REQUIRE(ca.starts_with("-----BEGIN CERTIFICATE-----"));
  // The fingerprint in the log is the written CA's, as `openssl x509 -fingerprint -sha256` prints it.
  BIO* in = BIO_new_mem_buf(ca.data(), static_cast<int>(ca.size()));
  X509* ca_cert = PEM_read_bio_X509(in, nullptr, nullptr, nullptr);
  BIO_free(in);
  REQUIRE(ca_cert != nullptr);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_size = 0;
  REQUIRE(X509_digest(ca_cert, EVP_sha256(), digest.data(), &digest_size) == 1);
  X509_free(ca_cert);
  std::string fingerprint;
  for (unsigned int i = 0; i < digest_size; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, i == 0 ? "%02X" : ":%02X", digest[i]);
    fingerprint += hex;
  }
  CHECK_THAT(daemon.log(), Catch::Contains(fingerprint) && Catch::Contains("/.well-known/sextant/ca.crt"));

  net::io_context io;
  std::string served;
  CHECK(kube::testing::run_to_end(io, verified_get(daemon.port(), ca, "sextantd.test", "/.well-known/sextant/ca.crt",
                                                   &served)) == std::optional<int>(200));
  CHECK(served == ca);
  CHECK(kube::testing::run_to_end(io, verified_get(daemon.port(), ca, "localhost", "/api/v1/sections")) ==
        std::optional<int>(200));
  CHECK(kube::testing::run_to_end(io, plain_get(daemon.port())) == std::optional<int>(0));  // HTTPS only
  CHECK(daemon.stop(SIGTERM, std::chrono::seconds(10)) == 0);
}

TEST_CASE("a certificate or key that does not load stops sextantd at start with the file and the reason",
          "[tls][e2e]") {
  key_pair files;
  kube::testing::temp_dir snapshot;
  const std::string start = "--snapshot " + snapshot.path().string();
  auto run = [&](const std::filesystem::path& cert, const std::filesystem::path& key) {
    return testing::run_to_exit(start + " --tls-cert " + cert.string() + " --tls-key " + key.string());
  };
  const auto not_pem = files.dir.write("garbage.crt", "not a certificate\n");
  auto [garbage_code, garbage_text] = run(not_pem, files.key);
  CHECK(garbage_code == 1);  // an error, not a crash (which would be 128 + a signal)
  CHECK_THAT(garbage_text, Catch::Contains("--tls-cert " + not_pem.string()) && Catch::Contains("no start line"));

  auto [missing_code, missing_text] = run(files.cert, files.dir.path() / "none.key");
  CHECK(missing_code == 1);
  CHECK_THAT(missing_text, Catch::Contains("--tls-key " + (files.dir.path() / "none.key").string()));

  auto other = make_self_signed_tls({"localhost"});
  REQUIRE(std::holds_alternative<self_signed_tls>(other));
  const auto other_key = files.dir.write("other.key", std::get<self_signed_tls>(other).key_pem);
  auto [mismatch_code, mismatch_text] = run(files.cert, other_key);
  CHECK(mismatch_code == 1);
  CHECK_THAT(mismatch_text, Catch::Contains("--tls-key " + other_key.string()) && Catch::Contains("mismatch"));

  auto [ca_code, ca_text] =
      testing::run_to_exit(start + " --tls=self-signed --tls-ca-file " + (files.dir.path() / "no/dir/ca.crt").string());
  CHECK(ca_code == 1);
  CHECK_THAT(ca_text, Catch::Contains("--tls-ca-file") && Catch::Contains("no/dir/ca.crt"));
}
