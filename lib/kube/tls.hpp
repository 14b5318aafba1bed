#pragma once
// TLS for API server connections: the trust (CA or system store), the client certificate,
// and per-connection name checking against the server's host, or tls-server-name.
//
// The certificate is always verified unless the kubeconfig says insecure-skip-tls-verify;
// there is no fallback to an unverified connection when verification fails.
#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

#include "kube/connection_config.hpp"

namespace sextant::kube {

struct tls_context_result {
  std::shared_ptr<boost::asio::ssl::context> value;
  std::string error;
};

// A client context trusting the config's CA (or the system's) and presenting the given
// client certificate, if any.
tls_context_result make_tls_context(const connection_config& config, const std::string& client_cert_pem,
                                    const std::string& client_key_pem);

// The name the server's certificate must carry: tls-server-name, else the URL's host.
std::string expected_server_name(const connection_config& config);

// Sets SNI (for DNS names) and the name or IP address the handshake must verify.
// Returns an error message, or empty.
std::string prepare_tls_connection(SSL* ssl, const connection_config& config);

// Why a handshake failed, in words: the verification error when there was one.
std::string describe_tls_failure(SSL* ssl, const std::string& transport_error, const connection_config& config);

}  // namespace sextant::kube
