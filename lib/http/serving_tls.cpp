#include "http/serving_tls.hpp"

#include <cstdio>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace sextant {
namespace ssl = boost::asio::ssl;

serving_tls::pair_stamp serving_tls::stamp() const {
  return {stamp_of(cert_.string()), stamp_of(key_.string())};
}

namespace {

// TLS 1.2's suites: ECDHE key exchange (forward secrecy) and AEAD ciphers only, as Mozilla's
// "intermediate" server configuration lists them. TLS 1.3's suites are all of that kind already.
constexpr const char* tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

std::shared_ptr<ssl::context> server_context() {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use |
                       ssl::context::no_compression | SSL_OP_NO_RENEGOTIATION);
  SSL_CTX* native = context->native_handle();
  // The floor as a version too: the no_tlsv1* options alone leave a gap a later version could open.
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_cipher_list(native, tls12_ciphers) != 1) {
    throw std::runtime_error("OpenSSL refuses the TLS 1.2 floor or its cipher suites");
  }
  return context;
}

}  // namespace

std::string serving_tls::load_made() {
  auto context = server_context();
  boost::system::error_code error;
  context->use_certificate_chain(boost::asio::buffer(made_->chain_pem), error);
  if (!error) {
    context->use_private_key(boost::asio::buffer(made_->key_pem), ssl::context::pem, error);
  }
  if (error) {
    return "the self-signed certificate does not load: " + error.message();
  }
  context_ = std::move(context);
  ++loads_;
  return {};
}

std::string key_file_exposure(const std::filesystem::path& key) {
  std::error_code error;
  const std::filesystem::perms mode = std::filesystem::status(key, error).permissions();  // through symlinks
  if (error || (mode & std::filesystem::perms::others_all) == std::filesystem::perms::none) {
    return {};
  }
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode) & 07777U);
  return "the private key " + key.string() + " is readable by every user (mode " + octal +
         "); 0600 or 0440 keeps it to the daemon (a Secret volume's defaultMode)";
}

std::string serving_tls::load() {
  if (made_) {
    return load_made();
  }
  const pair_stamp now = stamp();
  auto context = server_context();
  boost::system::error_code error;
  context->use_certificate_chain_file(cert_.string(), error);
  if (error) {
    return "--tls-cert " + cert_.string() + ": " + error.message();
  }
  context->use_private_key_file(key_.string(), ssl::context::pem, error);
  if (error) {
    return "--tls-key " + key_.string() + ": " + error.message();
  }
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    return "--tls-key " + key_.string() + " is not the key of the certificate in " + cert_.string();
  }
  if (std::string exposed = key_file_exposure(key_); !exposed.empty()) {
    spdlog::warn("{}", exposed);
  }
  context_ = std::move(context);
  loaded_stamp_ = now;
  ++loads_;
  return {};
}

void serving_tls::refresh(std::chrono::steady_clock::duration interval) {
  if (made_) {
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_look_ < interval) {
    return;
  }
  last_look_ = now;
  const pair_stamp current = stamp();
  if (current == loaded_stamp_ || current == failed_stamp_) {
    return;
  }
  if (std::string error = load(); !error.empty()) {
    failed_stamp_ = current;
    spdlog::error("the TLS certificate changed but does not load, so the previous one is served: {}", error);
    return;
  }
  spdlog::info("TLS certificate reloaded from {}", cert_.string());
}

}  // namespace sextant
