#pragma once
// The certificate the daemon makes for itself (--tls=self-signed), as kube-rbac-proxy does when
// it is given none: a CA of its own and a serving certificate it signs, made at start with
// OpenSSL and held in memory only. The CA is what callers trust; the daemon publishes it
// (GET /.well-known/sextant/ca.crt, --tls-ca-file) and logs its SHA-256 fingerprint, so that a
// copy fetched over the network can be checked against the Pod's log.
#include <chrono>
#include <string>
#include <variant>
#include <vector>

namespace sextant {

struct self_signed_tls {
  std::string ca_pem;     // the CA's certificate, for callers to trust
  std::string chain_pem;  // the serving certificate, then the CA's
  std::string key_pem;    // the serving certificate's private key (never leaves the process)
  std::string ca_sha256;  // the CA's fingerprint, AB:CD:… as `openssl x509 -fingerprint -sha256` prints it
};

// How long the certificates made at start hold. A restart makes new ones (the CA too).
constexpr std::chrono::hours self_signed_validity{24 * 365};

// A name the certificate may carry: a DNS name (letters, digits, '-', '.', a leading "*.") or an
// IPv4/IPv6 address. Returns why not, or empty.
std::string check_certificate_name(const std::string& name);

// Makes a CA and a serving certificate for `names` (each DNS name or IP address goes in as a
// subject alternative name of that kind; the first is also the subject's CN). ECDSA P-256,
// SHA-256, valid from an hour ago (clocks differ) for `validity`. Returns the material or the
// error.
std::variant<self_signed_tls, std::string> make_self_signed_tls(const std::vector<std::string>& names,
                                                                std::chrono::hours validity = self_signed_validity);

// The names the daemon's certificate carries by default: localhost, 127.0.0.1, ::1 and the
// host's name (a Pod's name), then `extra` (--tls-san: the Service's DNS names, the Pod's IP).
std::vector<std::string> self_signed_names(const std::vector<std::string>& extra);

}  // namespace sextant
