#pragma once
// The server side of TLS. With --tls=files (--tls-cert, --tls-key): a context made from two PEM
// files, made again when either file changes (cert-manager and the kubelet replace mounted Secrets
// in place), so a renewed certificate is served without a restart. A pair that does not load keeps
// the one in force, so a half-written renewal never takes the API down. With --tls=self-signed: a
// context from the certificate the daemon made at start (self_signed_tls), fixed for its life.
//
// TLS 1.2 and later (TLS 1.2 with forward-secret AEAD suites only: Mozilla's "intermediate"),
// no compression, and no renegotiation: a renegotiating client could make a write need a read,
// and bulk_writer encrypts a large answer off the loop on the promise that writing only writes.
// A key file other users may read is served, with a warning (a Secret mounted with the default
// mode 0644 is, inside a container of one user).
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/ssl/context.hpp>

#include "http/self_signed_tls.hpp"
#include "util/file_stamp.hpp"

namespace sextant {

// Why a private key file is exposed ("... is readable by every user (mode 0644) ..."), or empty.
std::string key_file_exposure(const std::filesystem::path& key);

class serving_tls {
 public:
  serving_tls(std::filesystem::path cert, std::filesystem::path key) : cert_(std::move(cert)), key_(std::move(key)) {}
  explicit serving_tls(self_signed_tls made) : made_(std::move(made)) {}

  // Loads the pair; returns the error (naming the file) or empty. At start, an error stops the daemon.
  std::string load();
  // Loads again when a file changed since the last look (at most once per `interval`); keeps the
  // context in force when the new pair fails, and logs why. Nothing to do for a made certificate.
  void refresh(std::chrono::steady_clock::duration interval = std::chrono::seconds(1));
  // The context new connections use (shared: a connection keeps the one it started with).
  std::shared_ptr<boost::asio::ssl::context> context() const { return context_; }
  std::uint64_t loads() const { return loads_; }

 private:
  // Both files' stamps: a renewal rewrites or replaces one of them (util/file_stamp.hpp).
  using pair_stamp = std::pair<std::optional<file_stamp>, std::optional<file_stamp>>;
  pair_stamp stamp() const;

  std::string load_made();

  std::optional<self_signed_tls> made_;
  std::filesystem::path cert_;
  std::filesystem::path key_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  std::optional<pair_stamp> loaded_stamp_;
  std::optional<pair_stamp> failed_stamp_;  // a pair that failed: not tried again until it changes
  std::chrono::steady_clock::time_point last_look_{};
  std::uint64_t loads_ = 0;
};

}  // namespace sextant
