#pragma once
// The configuration a Pod gets from its service account: token, CA and namespace files, and
// the API server's address in KUBERNETES_SERVICE_HOST / KUBERNETES_SERVICE_PORT.
//
// The token is not read here: it is named as a token file, so the client re-reads it when it
// changes (bound tokens rotate) and at once after a 401.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "kube/connection_config.hpp"

namespace sextant::kube {

struct in_cluster_sources {
  std::filesystem::path account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
  // Reads an environment variable; nullopt when unset. Defaults to the process environment.
  std::function<std::optional<std::string>(const std::string&)> getenv;
};

in_cluster_sources in_cluster_from_environment();

config_result load_in_cluster(const in_cluster_sources& sources);

}  // namespace sextant::kube
