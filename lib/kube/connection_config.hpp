#pragma once
// Everything needed to reach one API server as one identity, whatever it was read from
// (a kubeconfig context or a Pod's service account).
//
// Plain data, filled once at startup; file contents are read into memory then, and the files
// that rotate (token files, a CA bundle) are also named so that they are re-read.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kube/url.hpp"

namespace sextant::kube {

// users[].user.exec of a kubeconfig: a program that prints an ExecCredential.
struct exec_config {
  std::string api_version;  // client.authentication.k8s.io/v1 or /v1beta1
  std::string command;      // resolved against the kubeconfig's folder when it holds a '/'
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // added to the daemon's environment
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;  // Never, IfAvailable, Always (the daemon never has a terminal)
};

struct connection_config {
  url server;
  std::string ca_pem;   // empty: the system's trust store
  std::string ca_file;  // where ca_pem was read from, if a file: re-read when it changes
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // verify the certificate against this name instead of the host
  std::optional<url> proxy;     // HTTP CONNECT proxy

  std::string client_cert_pem;
  std::string client_key_pem;
  std::string token;
  std::string token_file;  // re-read when it changes and after a 401
  std::string username;
  std::string password;
  std::optional<exec_config> exec;

  std::string namespace_;  // the context's (or service account's) namespace
  // Where this came from, for logs: "kubeconfig /home/u/.kube/config, context kind-a".
  std::string source;
};

// A config, or why none could be built: one sentence naming the field at fault.
struct config_result {
  std::optional<connection_config> value;
  std::string error;
};

}  // namespace sextant::kube
