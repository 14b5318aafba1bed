#include "http/self_signed_tls.hpp"

#include <algorithm>
#include <array>
#include <memory>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>
#include <boost/asio/ip/address.hpp>

namespace sextant {
namespace {

template <auto Free>
struct openssl_free {
  template <typename T>
  void operator()(T* p) const {
    Free(p);
  }
};
using key_ptr = std::unique_ptr<EVP_PKEY, openssl_free<EVP_PKEY_free>>;
using cert_ptr = std::unique_ptr<X509, openssl_free<X509_free>>;
using bio_ptr = std::unique_ptr<BIO, openssl_free<BIO_free_all>>;
using name_ptr = std::unique_ptr<X509_NAME, openssl_free<X509_NAME_free>>;
using extension_ptr = std::unique_ptr<X509_EXTENSION, openssl_free<X509_EXTENSION_free>>;

// OpenSSL's own words for the last failure, for the error sentence.
std::string openssl_reason(const std::string& step) {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) {
    return "making the self-signed certificate: " + step + " failed";
  }
  std::array<char, 256> text{};
  ERR_error_string_n(code, text.data(), text.size());
  return "making the self-signed certificate: " + step + ": " + text.data();
}

bool add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  extension_ptr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str()));
  return extension && X509_add_ext(cert, extension.get(), -1) == 1;
}

bool is_ip(const std::string& name) {
  boost::system::error_code error;
  (void)boost::asio::ip::make_address(name, error);
  return !error;
}

// One certificate: `issuer` and `issuer_key` sign it; none makes it self-signed.
std::variant<cert_ptr, std::string> make_certificate(EVP_PKEY* key, const std::string& common_name, X509* issuer,
                                                     EVP_PKEY* issuer_key, std::chrono::hours validity,
                                                     const std::vector<std::pair<int, std::string>>& extensions) {
  cert_ptr cert(X509_new());
  std::array<unsigned char, 16> serial_bytes{};
  if (!cert || RAND_bytes(serial_bytes.data(), serial_bytes.size()) != 1) {
    return openssl_reason("a serial number");
  }
  serial_bytes[0] &= 0x7f;  // a positive serial
  BIGNUM* serial = BN_bin2bn(serial_bytes.data(), serial_bytes.size(), nullptr);
  const bool serial_set = serial != nullptr && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get())) != nullptr;
  BN_free(serial);
  name_ptr subject(X509_NAME_new());
  const bool named = subject && X509_NAME_add_entry_by_txt(subject.get(), "CN", MBSTRING_UTF8,
                                                           reinterpret_cast<const unsigned char*>(common_name.c_str()),
                                                           -1, -1, 0) == 1;
  if (!serial_set || !named || X509_set_version(cert.get(), 2) != 1 ||
      X509_set_subject_name(cert.get(), subject.get()) != 1 ||
      X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : subject.get()) != 1 ||
      X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), std::chrono::seconds(validity).count()) == nullptr ||
      X509_set_pubkey(cert.get(), key) != 1) {
    return openssl_reason("the certificate's fields");
  }
  for (const auto& [nid, value] : extensions) {
    if (!add_extension(cert.get(), issuer ? issuer : cert.get(), nid, value)) {
      return openssl_reason("the extension " + std::string(OBJ_nid2sn(nid)) + " = " + value);
    }
  }
  if (X509_sign(cert.get(), issuer_key ? issuer_key : key, EVP_sha256()) == 0) {
    return openssl_reason("signing");
  }
  return cert;
}

std::string pem_of(X509* cert) {
  bio_ptr out(BIO_new(BIO_s_mem()));
  if (!out || PEM_write_bio_X509(out.get(), cert) != 1) {
    return {};
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string pem_of(EVP_PKEY* key) {
  bio_ptr out(BIO_new(BIO_s_mem()));
  if (!out || PEM_write_bio_PrivateKey(out.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return {};
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string sha256_fingerprint(X509* cert) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (X509_digest(cert, EVP_sha256(), digest.data(), &size) != 1) {
    return {};
  }
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    if (i > 0) {
      out += ':';
    }
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string check_certificate_name(const std::string& name) {
  if (name.empty()) {
    return "an empty name";
  }
  if (is_ip(name)) {
    return {};
  }
  std::string_view rest = name;
  if (rest.starts_with("*.")) {
    rest.remove_prefix(2);
  }
  if (rest.size() > 253) {
    return "\"" + name + "\" is longer than a DNS name may be (253)";
  }
  std::size_t label = 0;
  for (std::size_t i = 0; i <= rest.size(); ++i) {
    if (i == rest.size() || rest[i] == '.') {
      if (label == 0 || label > 63 || rest[i - 1] == '-' || rest[i - label] == '-') {
        return "\"" + name + "\" is neither an IP address nor a DNS name (labels of 1-63 letters, digits or '-')";
      }
      label = 0;
      continue;
    }
    const char c = rest[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) {
      return "\"" + name + "\" is neither an IP address nor a DNS name (labels of 1-63 letters, digits or '-')";
    }
    ++label;
  }
  return {};
}

std::vector<std::string> self_signed_names(const std::vector<std::string>& extra) {
  std::vector<std::string> names{"localhost", "127.0.0.1", "::1"};
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0 && check_certificate_name(host.data()).empty()) {
    names.emplace_back(host.data());
  }
  for (const std::string& name : extra) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
  }
  return names;
}

std::variant<self_signed_tls, std::string> make_self_signed_tls(const std::vector<std::string>& names,
                                                                std::chrono::hours validity) {
  if (names.empty()) {
    return std::string("making the self-signed certificate: no name to give it");
  }
  std::string alternatives;
  for (const std::string& name : names) {
    if (std::string why = check_certificate_name(name); !why.empty()) {
      return "making the self-signed certificate: " + why;
    }
    alternatives += (alternatives.empty() ? "" : ",") + std::string(is_ip(name) ? "IP:" : "DNS:") + name;
  }
  key_ptr ca_key(EVP_EC_gen("P-256"));
  key_ptr serving_key(EVP_EC_gen("P-256"));
  if (!ca_key || !serving_key) {
    return openssl_reason("an ECDSA P-256 key");
  }
  const auto since_epoch =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  auto ca = make_certificate(ca_key.get(), "sextantd-ca@" + std::to_string(since_epoch), nullptr, nullptr, validity,
                             {{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
                              {NID_key_usage, "critical,keyCertSign,cRLSign"},
                              {NID_subject_key_identifier, "hash"}});
  if (auto* error = std::get_if<std::string>(&ca)) {
    return *error;
  }
  X509* ca_cert = std::get<cert_ptr>(ca).get();
  auto serving = make_certificate(serving_key.get(), names.front(), ca_cert, ca_key.get(), validity,
                                  {{NID_basic_constraints, "critical,CA:FALSE"},
                                   {NID_key_usage, "critical,digitalSignature"},
                                   {NID_ext_key_usage, "serverAuth"},
                                   {NID_subject_key_identifier, "hash"},
                                   {NID_authority_key_identifier, "keyid:always"},
                                   {NID_subject_alt_name, alternatives}});
  if (auto* error = std::get_if<std::string>(&serving)) {
    return *error;
  }
  self_signed_tls made;
  made.ca_pem = pem_of(ca_cert);
  made.chain_pem = pem_of(std::get<cert_ptr>(serving).get()) + made.ca_pem;
  made.key_pem = pem_of(serving_key.get());
  made.ca_sha256 = sha256_fingerprint(ca_cert);
  if (made.ca_pem.empty() || made.key_pem.empty() || made.ca_sha256.empty()) {
    return openssl_reason("writing PEM");
  }
  return made;
}

}  // namespace sextant
