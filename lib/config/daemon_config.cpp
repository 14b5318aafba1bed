// Over 400 lines because most of it is the one table of every setting (file key and flag
// together), kept whole so that a setting is added in one place.
#include "config/daemon_config.hpp"

#include <algorithm>
#include <charconv>
#include <functional>

#include <yaml-cpp/yaml.h>

#include "http/self_signed_tls.hpp"
#include "util/file.hpp"

namespace sextant {
namespace {

using setter = std::function<void(daemon_config&, const std::string& value, const std::string& where)>;

int parse_positive(const std::string& value, const std::string& where) {
  int out = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc{} || end != value.data() + value.size() || out <= 0) {
    throw config_error(where + ": expected a positive whole number, got \"" + value + "\"");
  }
  return out;
}

std::uint64_t parse_positive_bytes(const std::string& value, const std::string& where) {
  std::uint64_t out = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc{} || end != value.data() + value.size() || out == 0) {
    throw config_error(where + ": expected a positive whole number of bytes, got \"" + value + "\"");
  }
  return out;
}

void check_one_of(const std::string& value, std::initializer_list<const char*> allowed, const std::string& where) {
  for (const char* word : allowed) {
    if (value == word) {
      return;
    }
  }
  std::string list;
  for (const char* word : allowed) {
    list += (list.empty() ? "" : ", ") + std::string(word);
  }
  throw config_error(where + ": \"" + value + "\" is not one of " + list);
}

bool parse_bool(const std::string& value, const std::string& where) {
  if (value == "true") {
    return true;
  }
  if (value == "false") {
    return false;
  }
  throw config_error(where + ": expected true or false, got \"" + value + "\"");
}

// ADDRESS:PORT as --listen takes it.
std::string checked_listen(const std::string& v, const std::string& where) {
  auto colon = v.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == v.size()) {
    throw config_error(where + ": expected ADDRESS:PORT, got \"" + v + "\"");
  }
  int port = parse_positive(v.substr(colon + 1), where);
  if (port > 65535) {
    throw config_error(where + ": port " + std::to_string(port) + " is out of range");
  }
  return v;
}

struct option_entry {
  config_option option;
  setter apply;
  bool is_switch = false;  // a flag that takes no value
};

const std::vector<option_entry>& entries() {
  static const std::vector<option_entry> table = {
      {{"listen", "--listen", "Address and port of the HTTP API (default 127.0.0.1:8080)"},
       [](daemon_config& c, const std::string& v, const std::string& where) { c.listen = checked_listen(v, where); }},
      {{"probeListen", "--probe-listen",
        "Address and port of /healthz and /readyz on a thread of their own, so probes never wait "
        "behind the API (default: only on --listen)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.probe_listen = checked_listen(v, where);
       }},
      {{"snapshot", "--snapshot", "Serve the objects in this directory instead of a live cluster"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.snapshot = v; }},
      {{"now", "--now", "Fix the clock at this RFC 3339 time (snapshot mode, tests)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         auto at = parse_rfc3339(v);
         if (!at) {
           throw config_error(where + ": \"" + v + "\" is not an RFC 3339 time such as 2026-11-29T12:00:00Z");
         }
         c.now = at;
       }},
      {{"kubeconfig", "--kubeconfig", "Kubeconfig file (default $KUBECONFIG, then ~/.kube/config)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.kubeconfig = v; }},
      {{"context", "--context", "Kubeconfig context (default: its current-context)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.context = v; }},
      {{"inCluster", "--in-cluster", "Use the Pod's service account (default when running in a Pod)"},
       [](daemon_config& c, const std::string& v, const std::string& where) { c.in_cluster = parse_bool(v, where); },
       true},
      {{"settingsFile", "--settings-file", "Where problem-category settings persist (default: not persisted)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.settings_file = v; }},
      {{"settingsConfigMapFile", "--settings-configmap-file",
        "A mounted ConfigMap key holding the problem settings, re-read when it changes; changes made "
        "through the API then last only until a restart or the ConfigMap's next change"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.settings_configmap_file = v; }},
      {{"logFormat", "--log-format", "auto, text or json (auto: text on a terminal, JSON lines otherwise)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         check_one_of(v, {"auto", "text", "json"}, where);
         c.log_format = v;
       }},
      {{"logLevel", "--log-level", "trace, debug, info, warn or error"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         check_one_of(v, {"trace", "debug", "info", "warn", "error"}, where);
         c.log_level = v;
       }},
      {{"maxConnections", "--max-connections", "Concurrent HTTP connections served (more are refused)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_connections = parse_positive(v, where);
       }},
      {{"maxRequestBytes", "--max-request-bytes", "Largest request (headers plus body) accepted"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_request_bytes = parse_positive(v, where);
       }},
      {{"idleTimeoutSeconds", "--idle-timeout-seconds", "Seconds an idle keep-alive connection stays open"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.idle_timeout_seconds = parse_positive(v, where);
       }},
      {{"shutdownGraceSeconds", "--shutdown-grace-seconds", "Seconds given to open requests on SIGTERM"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.shutdown_grace_seconds = parse_positive(v, where);
       }},
      {{"maxSnapshotFileBytes", "--max-snapshot-file-bytes",
        "Largest snapshot file read; a larger one is reported and skipped (default 268435456, 256 MiB)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_snapshot_file_bytes = parse_positive_bytes(v, where);
       }},
      {{"maxYamlAliasNodes", "--max-yaml-alias-nodes",
        "Nodes a snapshot YAML document may add through aliases beyond its own size; past it the document is "
        "reported and skipped (default 100000)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_yaml_alias_nodes = parse_positive(v, where);
       }},
      {{"auth", "--auth",
        "kubernetes: every /api/v1 and /metrics request needs a bearer token, checked with a TokenReview, and "
        "sees only what its user may read (SubjectAccessReviews); none: anyone who reaches the port sees "
        "everything, allowed on loopback only (default: kubernetes with --in-cluster, else none)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         check_one_of(v, {"kubernetes", "none"}, where);
         c.auth = v;
       }},
      {{"insecureAllowAnyone", "--insecure-allow-anyone",
        "Allow --auth=none on an address that is not loopback (a warning is logged every minute)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.insecure_allow_anyone = parse_bool(v, where);
       },
       true},
      {{"authCacheSeconds", "--auth-cache-seconds", "Seconds a token's verdict is kept, by its SHA-256 (default 10)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.auth_cache_seconds = parse_positive(v, where);
       }},
      {{"accessCacheSeconds", "--access-cache-seconds", "Seconds a caller's permission decision is kept (default 10)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.access_cache_seconds = parse_positive(v, where);
       }},
      {{"metricsPermissionPath", "--metrics-permission-path",
        "With --auth=kubernetes: the non-resource URL a caller needs `get` on to read /metrics (default "
        "/sextant/metrics; /metrics, which also grants the API server's and kubelets' metrics, suits a "
        "Prometheus that already holds it)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         if (v.size() < 2 || v.front() != '/' || v.find_first_of("*? \t") != std::string::npos) {
           throw config_error(where + ": \"" + v + "\" is not a non-resource URL (a path such as /sextant/metrics)");
         }
         c.metrics_permission_path = v;
       }},
      {{"tls", "--tls",
        "files: HTTPS with --tls-cert and --tls-key; self-signed: HTTPS with a CA and certificate made at start "
        "(the CA is served at /.well-known/sextant/ca.crt and written to --tls-ca-file); off: plain HTTP "
        "(default: files when --tls-cert is given, else off)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         check_one_of(v, {"files", "self-signed", "off"}, where);
         c.tls = v;
       }},
      {{"tlsCert", "--tls-cert",
        "Serve HTTPS with this PEM certificate chain (re-read when it changes; with --tls-key)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.tls_cert = v; }},
      {{"tlsKey", "--tls-key", "The PEM private key of --tls-cert (re-read when it changes)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.tls_key = v; }},
      {{"tlsSan", "--tls-san",
        "With --tls=self-signed: more names of the certificate, comma-separated DNS names or IP addresses (the "
        "Service's names, the Pod's IP); localhost, 127.0.0.1, ::1 and the host name are always in"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.tls_sans.clear();
         std::size_t from = 0;
         while (from <= v.size()) {
           const std::size_t comma = std::min(v.find(',', from), v.size());
           std::string name = v.substr(from, comma - from);
           if (std::string why = check_certificate_name(name); !why.empty()) {
             throw config_error(where + ": " + why);
           }
           c.tls_sans.push_back(std::move(name));
           from = comma + 1;
         }
       }},
      {{"tlsCaFile", "--tls-ca-file",
        "With --tls=self-signed: write the CA callers should trust to this file at start (PEM)"},
       [](daemon_config& c, const std::string& v, const std::string&) { c.tls_ca_file = v; }},
      {{"maxClientConnections", "--max-client-connections",
        "Connections one client address (an IPv6 /64) may hold; past it its own idle connection makes room, else "
        "503 (default: half of --max-connections)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_connections_per_client = parse_positive(v, where);
       }},
      {{"headTimeoutSeconds", "--head-timeout-seconds",
        "Seconds a request's head may take from its first byte; later: 408 (default 10)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.request_head_timeout_seconds = parse_positive(v, where);
       }},
      {{"viewCacheBytes", "--view-cache-bytes",
        "Bytes the cached answers may hold, keys and all; a list's pages and filtered subsets get an eighth "
        "(default 100663296, 96 MiB)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.view_cache_bytes = parse_positive(v, where);
       }},
      {{"viewCacheEntries", "--view-cache-entries", "Cached answers kept at most (default 16384)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.view_cache_entries = parse_positive(v, where);
       }},
      {{"maxSelectorTerms", "--max-selector-terms", "Terms one labelSelector may have; more: 400 (default 20)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.max_selector_terms = parse_positive(v, where);
       }},
      {{"badTokensPerMinute", "--bad-tokens-per-minute",
        "TokenReviews of invalid bearer tokens one client address may cause a minute (bursts of 10); past it: 429 "
        "(default 30)"},
       [](daemon_config& c, const std::string& v, const std::string& where) {
         c.invalid_tokens_per_minute = parse_positive(v, where);
       }},
  };
  return table;
}

const option_entry* find_key(const std::string& key) {
  for (const option_entry& entry : entries()) {
    if (entry.option.key == key) {
      return &entry;
    }
  }
  return nullptr;
}

const option_entry* find_flag(const std::string& flag) {
  for (const option_entry& entry : entries()) {
    if (entry.option.flag == flag) {
      return &entry;
    }
  }
  return nullptr;
}

// A settings file is small; a larger one is a mistake (or /dev/zero), not settings.
constexpr std::uint64_t largest_config_file = std::uint64_t{1} << 20;

std::string config_text(const std::string& path) {
  std::string error;
  std::optional<std::string> text = read_file(path, error, largest_config_file);
  if (!text) {
    throw config_error("--config: " + error);
  }
  return *std::move(text);
}

}  // namespace

const std::vector<config_option>& config_options() {
  static const std::vector<config_option> options = [] {
    std::vector<config_option> out;
    for (const option_entry& entry : entries()) {
      out.push_back(entry.option);
    }
    return out;
  }();
  return options;
}

void apply_config_yaml(daemon_config& config, const std::string& text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throw config_error(origin + ":" + std::to_string(error.mark.line + 1) + ": " + error.msg);
  }
  if (root.IsNull()) {
    return;
  }
  if (!root.IsMap()) {
    throw config_error(origin + ": expected a mapping of settings");
  }
  // Every value is read as one scalar, so an alias never expands here: a list or mapping where
  // a value belongs is an error, whatever it holds.
  for (const auto& item : root) {
    const std::string line = origin + ":" + std::to_string(item.first.Mark().line + 1);
    if (!item.first.IsScalar()) {
      throw config_error(line + ": a key must be the name of a setting, not a list, mapping or nothing");
    }
    const std::string key = item.first.Scalar();
    const option_entry* entry = find_key(key);
    const std::string where = line + ": " + key;
    if (entry == nullptr) {
      throw config_error(line + ": unknown key \"" + key + "\"");
    }
    if (!item.second.IsScalar()) {
      throw config_error(where + ": expected a single value");
    }
    entry->apply(config, item.second.Scalar(), where);
  }
}

parsed_command_line parse_command_line(const std::vector<std::string>& args) {
  parsed_command_line parsed;
  // The file first, so flags given anywhere win over it.
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string path;
    if (args[i] == "--config" && i + 1 < args.size()) {
      path = args[i + 1];
    } else if (args[i].starts_with("--config=")) {
      path = args[i].substr(9);
    } else if (args[i] == "--config") {
      throw config_error("--config needs a file");
    }
    if (!path.empty()) {
      apply_config_yaml(parsed.config, config_text(path), path);
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag == "--help" || flag == "-h") {
      parsed.show_help = true;
      continue;
    }
    if (flag == "--version") {
      parsed.show_version = true;
      continue;
    }
    std::optional<std::string> value;
    if (auto eq = flag.find('='); flag.starts_with("--") && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--config") {
      if (!value) {
        ++i;
      }
      continue;
    }
    const option_entry* entry = find_flag(flag);
    if (entry == nullptr) {
      throw config_error("unknown flag \"" + flag + "\" (see --help)");
    }
    if (!value) {
      if (entry->is_switch) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw config_error(flag + " needs a value");
      }
    }
    entry->apply(parsed.config, *value, flag);
  }
  return parsed;
}

std::string effective_auth(const daemon_config& config) {
  if (!config.auth.empty()) {
    return config.auth;
  }
  return config.in_cluster ? "kubernetes" : "none";
}

bool loopback_listen(const std::string& listen) {
  std::string host = listen.substr(0, listen.rfind(':'));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost" || host == "::1") {
    return true;
  }
  // 127.0.0.0/8, written as four decimal parts.
  if (!host.starts_with("127.")) {
    return false;
  }
  int parts = 0;
  std::size_t from = 0;
  while (from <= host.size()) {
    std::size_t dot = host.find('.', from);
    std::string part = host.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    int value = -1;
    auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc{} || end != part.data() + part.size() || value > 255) {
      return false;
    }
    ++parts;
    if (dot == std::string::npos) {
      break;
    }
    from = dot + 1;
  }
  return parts == 4;
}

std::string check_access_settings(const daemon_config& config) {
  const std::string auth = effective_auth(config);
  if (auth == "none" && !config.insecure_allow_anyone && !loopback_listen(config.listen)) {
    return "--auth=none serves everything to anyone who reaches " + config.listen +
           ": listen on loopback, use --auth=kubernetes, or say --insecure-allow-anyone";
  }
  if (auth == "kubernetes" && !config.snapshot.empty()) {
    return "--auth=kubernetes asks the cluster's API server about each caller: it does not go with --snapshot";
  }
  if (config.tls_cert.empty() != config.tls_key.empty()) {
    return "--tls-cert and --tls-key go together: name both files, or neither";
  }
  const std::string tls = effective_tls(config);
  if (tls == "files" && config.tls_cert.empty()) {
    return "--tls=files serves the certificate of --tls-cert and --tls-key: name both files (or say --tls=self-signed)";
  }
  if (tls != "files" && !config.tls_cert.empty()) {
    return "--tls-cert and --tls-key are served with --tls=files, not --tls=" + tls;
  }
  if (tls != "self-signed" && (!config.tls_sans.empty() || !config.tls_ca_file.empty())) {
    return std::string(config.tls_sans.empty() ? "--tls-ca-file" : "--tls-san") +
           " is about the certificate the daemon makes: it goes with --tls=self-signed, not --tls=" + tls;
  }
  return {};
}

std::string effective_tls(const daemon_config& config) {
  if (!config.tls.empty()) {
    return config.tls;
  }
  return config.tls_cert.empty() ? "off" : "files";
}

std::string usage_text() {
  std::string out =
      "Usage: sextantd [--snapshot DIR | --kubeconfig FILE [--context NAME] | --in-cluster] [options]\n\n"
      "Reads GPU and AI-ML operators' objects from the Kubernetes API (or a snapshot directory) and\n"
      "serves their state in plain words over a read-only HTTP API.\n\nOptions (each also a key of the --config YAML "
      "file):\n";
  // The text column starts two spaces past the longest flag, so no flag runs into its text.
  std::size_t column = 32;
  for (const option_entry& entry : entries()) {
    column = std::max(column, 2 + entry.option.flag.size() + (entry.is_switch ? 0 : 6) + 2);
  }
  std::string config = "  --config FILE";
  config.resize(column, ' ');
  out += config + "Read settings from a YAML file; flags win over it\n";
  for (const option_entry& entry : entries()) {
    std::string left = "  " + entry.option.flag + (entry.is_switch ? "" : " VALUE");
    left.resize(column, ' ');
    out += left + entry.option.help + "   [" + entry.option.key + "]\n";
  }
  out += "  --help, --version\n";
  return out;
}

}  // namespace sextant
