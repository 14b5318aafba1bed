#include "kube/in_cluster.hpp"

#include <cstdlib>

#include "util/file.hpp"

namespace sextant::kube {
namespace fs = std::filesystem;

namespace {

std::string trim(std::string text) {
  auto not_space = [](char c) { return c != ' ' && c != '\n' && c != '\r' && c != '\t'; };
  while (!text.empty() && !not_space(text.back())) {
    text.pop_back();
  }
  std::size_t start = 0;
  while (start < text.size() && !not_space(text[start])) {
    ++start;
  }
  return text.substr(start);
}

}  // namespace

in_cluster_sources in_cluster_from_environment() {
  in_cluster_sources sources;
  sources.getenv = [](const std::string& name) -> std::optional<std::string> {
    if (const char* value = std::getenv(name.c_str())) {
      return std::string(value);
    }
    return std::nullopt;
  };
  return sources;
}

config_result load_in_cluster(const in_cluster_sources& sources) {
  auto fail = [](std::string message) {
    return config_result{std::nullopt, "in-cluster config: " + std::move(message)};
  };
  auto env = [&sources](const char* name) -> std::string {
    if (!sources.getenv) {
      return {};
    }
    return sources.getenv(name).value_or("");
  };
  std::string host = env("KUBERNETES_SERVICE_HOST");
  std::string port = env("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) {
    return fail(
        "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must both be set (is sextantd running in a "
        "Pod?); outside a cluster use --kubeconfig");
  }
  std::string bracketed = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  url_result server = parse_url("https://" + bracketed + ":" + port);
  if (!server.value) {
    return fail("KUBERNETES_SERVICE_HOST/PORT: " + server.error);
  }
  connection_config config;
  config.server = std::move(*server.value);

  std::string error;
  const fs::path token = sources.account_dir / "token";
  if (!read_file(token, error)) {
    return fail("service account token: " + error);
  }
  config.token_file = token.string();
  auto ca = read_file(sources.account_dir / "ca.crt", error);
  if (!ca) {
    return fail("service account CA: " + error);
  }
  config.ca_pem = std::move(*ca);
  config.ca_file = (sources.account_dir / "ca.crt").string();  // rotated like the token
  std::string namespace_error;
  config.namespace_ = trim(read_file(sources.account_dir / "namespace", namespace_error).value_or("default"));
  config.source =
      "in-cluster service account (" + sources.account_dir.string() + ", " + config.server.authority() + ")";
  return {std::move(config), {}};
}

}  // namespace sextant::kube
