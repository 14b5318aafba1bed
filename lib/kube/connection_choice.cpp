#include "kube/connection_choice.hpp"

#include <system_error>

namespace sextant::kube {

config_result choose_connection(const connection_request& request, kubeconfig_sources files,
                                const in_cluster_sources& pod) {
  if (request.in_cluster) {
    if (!request.kubeconfig.empty() || !request.context.empty()) {
      return {std::nullopt, "--in-cluster cannot be combined with --kubeconfig or --context"};
    }
    return load_in_cluster(pod);
  }
  if (!request.kubeconfig.empty()) {
    files.explicit_path = request.kubeconfig;
    return load_kubeconfig(files, request.context);
  }
  files.explicit_path.reset();
  if (files.kubeconfig_env && !files.kubeconfig_env->empty()) {
    return load_kubeconfig(files, request.context);
  }
  std::error_code ec;
  if (!files.home.empty() && std::filesystem::exists(files.home / ".kube" / "config", ec)) {
    return load_kubeconfig(files, request.context);
  }
  const bool in_pod = pod.getenv && pod.getenv("KUBERNETES_SERVICE_HOST").has_value();
  if (in_pod && request.context.empty()) {
    return load_in_cluster(pod);
  }
  return {std::nullopt,
          "no cluster to connect to: no --kubeconfig, no $KUBECONFIG, no " +
              (files.home.empty() ? std::string("~/.kube/config") : (files.home / ".kube" / "config").string()) +
              (in_pod ? "" : ", and not in a Pod (KUBERNETES_SERVICE_HOST is not set)") +
              "; to serve files instead, use --snapshot DIR"};
}

}  // namespace sextant::kube
