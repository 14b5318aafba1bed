#pragma once
// The daemon's settings: a YAML file (--config) and flags, one table for both.
//
// Every key of the file is also a flag (`maxConnections` <-> `--max-connections`); flags win
// over the file. An unknown key or flag, or a value of the wrong form, is an error that names
// it: configuration errors stop the daemon at start, before it serves anything.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/time.hpp"

namespace sextant {

struct daemon_config {
  std::string listen = "127.0.0.1:8080";
  std::string probe_listen;             // empty = probes only on `listen`
  std::string snapshot;                 // directory of objects; empty = a live cluster
  std::optional<time_point> now;        // fixes the clock (snapshot mode and tests)
  std::string kubeconfig;               // empty = $KUBECONFIG, ~/.kube/config, or in-cluster
  std::string context;                  // kubeconfig context; empty = current-context
  bool in_cluster = false;              // force the service account config
  std::string settings_file;            // where problem-category settings persist; empty = not persisted
  std::string settings_configmap_file;  // a mounted ConfigMap key holding them, re-read on change
  std::string log_format = "auto";      // auto (text on a terminal, JSON otherwise), text, json
  std::string log_level = "info";
  int max_connections = 256;
  int max_request_bytes = 65536;
  int idle_timeout_seconds = 30;
  int shutdown_grace_seconds = 5;
  // Snapshot files are outside input: a larger one is reported and skipped, and a YAML document
  // may add at most so many nodes through aliases beyond its own size.
  std::uint64_t max_snapshot_file_bytes = std::uint64_t{256} << 20;
  int max_yaml_alias_nodes = 100000;
  // Who may ask (README "Security"): "kubernetes" (bearer tokens, TokenReview and
  // SubjectAccessReview) or "none"; empty = kubernetes with --in-cluster, else none.
  std::string auth;
  bool insecure_allow_anyone = false;  // --auth=none on an address that is not loopback
  int auth_cache_seconds = 10;         // how long a token's verdict is kept (by its SHA-256)
  int access_cache_seconds = 10;       // how long a permission decision is kept
  // The non-resource URL a caller needs `get` on to read /metrics: sextantd's own by default,
  // since `get /metrics` also lets its holder scrape the API server and every kubelet.
  std::string metrics_permission_path = "/sextant/metrics";
  // How the API port speaks (README "TLS"): "files" (HTTPS with --tls-cert/--tls-key),
  // "self-signed" (HTTPS with a CA and certificate the daemon makes at start) or "off" (plain
  // HTTP); empty = files when --tls-cert is given, else off.
  std::string tls;
  std::string tls_cert;  // PEM files: serve HTTPS, reloaded when they change
  std::string tls_key;
  std::vector<std::string> tls_sans;  // more names of the self-signed certificate (--tls-san a,b)
  std::string tls_ca_file;            // where the self-signed CA is written for callers
  // Bounds on what callers may hold or ask (README "Reliability").
  int max_connections_per_client = 0;     // 0: half of max_connections
  int request_head_timeout_seconds = 10;  // a request's head, from its first byte
  int view_cache_bytes = 96 << 20;        // every byte the cached answers hold
  int view_cache_entries = 16384;
  int max_selector_terms = 20;         // terms of one labelSelector
  int invalid_tokens_per_minute = 30;  // TokenReviews of invalid tokens, per client
};

// The TLS mode in force: "files", "self-signed" or "off".
std::string effective_tls(const daemon_config& config);

// The caller checks in force: "kubernetes" or "none".
std::string effective_auth(const daemon_config& config);
// Whether an ADDRESS:PORT listens on loopback only (127.0.0.0/8, ::1, localhost).
bool loopback_listen(const std::string& listen);
// The combinations refused at start: --auth=none off loopback without --insecure-allow-anyone,
// --auth=kubernetes without a cluster to ask (--snapshot), one of --tls-cert/--tls-key alone,
// a TLS flag that the --tls mode does not use.
// Returns the error sentence, or empty.
std::string check_access_settings(const daemon_config& config);

struct config_option {
  std::string key;   // YAML key: "maxConnections"
  std::string flag;  // "--max-connections"
  std::string help;
};

// The documented options, in --help order.
const std::vector<config_option>& config_options();

// Parses argv (without argv[0]) over defaults and the --config file if one is named. Throws
// `config_error` with a message naming the key, flag or value at fault.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct parsed_command_line {
  daemon_config config;
  bool show_help = false;
  bool show_version = false;
};
parsed_command_line parse_command_line(const std::vector<std::string>& args);

// Applies a YAML document's keys over `config`; `origin` names the file in errors.
void apply_config_yaml(daemon_config& config, const std::string& text, const std::string& origin);

std::string usage_text();

}  // namespace sextant
