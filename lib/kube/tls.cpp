#include "kube/tls.hpp"

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "kube/url.hpp"

namespace sextant::kube {
namespace ssl = boost::asio::ssl;

tls_context_result make_tls_context(const connection_config& config, const std::string& client_cert_pem,
                                    const std::string& client_key_pem) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                           ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1,
                       ec);
  if (config.insecure_skip_tls_verify) {
    context->set_verify_mode(ssl::verify_none, ec);
  } else {
    context->set_verify_mode(ssl::verify_peer, ec);
    if (!config.ca_pem.empty()) {
      context->add_certificate_authority(boost::asio::buffer(config.ca_pem), ec);
      if (ec) {
        return {nullptr, "certificate-authority: no usable PEM certificate (" + ec.message() + ")"};
      }
    } else {
      context->set_default_verify_paths(ec);
      if (ec) {
        return {nullptr, "cannot load the system's trusted certificates: " + ec.message()};
      }
    }
  }
  if (!client_cert_pem.empty()) {
    context->use_certificate_chain(boost::asio::buffer(client_cert_pem), ec);
    if (ec) {
      return {nullptr, "client-certificate: not a usable PEM certificate (" + ec.message() + ")"};
    }
    context->use_private_key(boost::asio::buffer(client_key_pem), ssl::context::pem, ec);
    if (ec) {
      return {nullptr, "client-key: not a usable PEM private key for the certificate (" + ec.message() + ")"};
    }
  }
  return {std::move(context), {}};
}

std::string expected_server_name(const connection_config& config) {
  return config.tls_server_name.empty() ? config.server.host : config.tls_server_name;
}

std::string prepare_tls_connection(SSL* ssl, const connection_config& config) {
  const std::string name = expected_server_name(config);
  const bool ip = is_ip_literal(name);
  // SSL_set_tlsext_host_name is a macro with a C cast; this is what it expands to.
  if (!ip &&
      SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(name.c_str())) != 1) {
    return "cannot set the TLS server name " + name;
  }
  if (config.insecure_skip_tls_verify) {
    return {};
  }
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
              : X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
  if (ok != 1) {
    return "cannot check the server certificate against " + name;
  }
  return {};
}

std::string describe_tls_failure(SSL* ssl, const std::string& transport_error, const connection_config& config) {
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    return "the API server's certificate is not trusted for " + expected_server_name(config) + ": " +
           X509_verify_cert_error_string(verify) +
           (config.ca_pem.empty()    ? " (checked against the system's trusted CAs)"
            : config.ca_file.empty() ? " (checked against the configured CA)"
                                     : " (checked against the CA in " + config.ca_file + ")");
  }
  return "TLS handshake with " + config.server.authority() + " failed: " + transport_error;
}

}  // namespace sextant::kube
