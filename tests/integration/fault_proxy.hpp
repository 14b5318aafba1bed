#pragma once
// tests/faultproxy's proxy as a child process between the daemon and a test cluster's API
// server: it forwards HTTPS both ways and, when a test arms a fault, stalls a watch, resets one
// halfway through an event, drops every open watch, answers with 429 / 500 / 503, or takes an
// API group out of discovery. It
// records every request (time, path, answer), so that a test can tell how often and how soon
// the daemon came back.
#include <sys/types.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kube/connection_config.hpp"
#include "test_cluster.hpp"
#include "util/json.hpp"

namespace sextant::integration {

// One request as the proxy saw it (milliseconds since the proxy started).
struct proxied_request {
  int id = 0;
  long long ms = 0;
  std::string path;
  std::string query;
  bool watch = false;  // a watch; a streaming list (sendInitialEvents) counts as a list
  int status = 0;
  std::string fault;    // "", "status", "stall", "cut", "drop", "hang", "reset"
  int retry_after = 0;  // seconds, of an answer that said so (the server's or a status fault's)
  long long stall_ms = -1;
  long long end_ms = -1;  // -1: still open
};

class fault_proxy {
 public:
  // Started in the cluster's folder, forwarding to its API server.
  explicit fault_proxy(const test_cluster& cluster);
  ~fault_proxy();
  fault_proxy(const fault_proxy&) = delete;
  fault_proxy& operator=(const fault_proxy&) = delete;

  // `config` (the cluster's, from a kubeconfig) sent through the proxy instead: same credentials.
  kube::connection_config through(kube::connection_config config) const;
  // Its front (https://127.0.0.1:PORT) and that front's CA file: for a kubeconfig that sends a
  // daemon process through the proxy.
  std::string url() const { return env_.at("URL"); }
  std::string ca_file() const { return env_.at("CA_CRT"); }
  // A kubeconfig file (in the proxy's folder) sending `token` through the proxy: for a sextantd
  // child process.
  std::filesystem::path kubeconfig_with(const std::string& token) const;

  // The next `count` requests to `path` ("/api/v1/pods"; "" for any) of `verb` ("list": paged or
  // streaming; "watch"; "any") are answered `code`, with Retry-After `retry_after` seconds if > 0.
  void refuse(const std::string& path, const std::string& verb, int count, int code, int retry_after = 0);
  // The next watch line (or new watch) of `path` is not passed on, nor anything after it.
  void stall(const std::string& path, int count = 1);
  // The next event (not a bookmark) of a watch of `path` is half sent, then the connection reset.
  void cut(const std::string& path, int count = 1);
  // The next `count` requests to `path` (any verb) are taken and never answered, until the
  // client gives up (`hang`), or their connection is reset with no answer (`reset`).
  void hang(const std::string& path, int count = 1);
  void reset(const std::string& path, int count = 1);
  // `group` ("kueue.x-k8s.io") is not served until `clear()`: discovery (/apis) leaves it out and
  // its paths answer 404, as an API server just restarted does before it has installed its CRDs.
  void hide(const std::string& group);
  // Forgets every armed fault not yet used up.
  void clear();
  // A value of proxy.env: URL (the daemon's side), CA_CRT (the CA of its certificate), CONTROL.
  std::string env(const std::string& key) const { return env_.at(key); }
  // Resets every open watch now; returns how many.
  int drop_watches();
  std::vector<proxied_request> requests() const;

 private:
  void arm(const std::string& query);

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  std::map<std::string, std::string> env_;
};

// Requests to `path` (lists, streaming or paged, and watches both when `watch` is unset) from
// `since_ms` on.
std::vector<proxied_request> requests_to(const std::vector<proxied_request>& all, const std::string& path,
                                         std::optional<bool> watch = std::nullopt, long long since_ms = 0);

}  // namespace sextant::integration
