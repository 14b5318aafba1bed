#pragma once
// Which cluster configuration the daemon uses, decided as kubectl and client-go decide it:
// --in-cluster forces the service account; --kubeconfig names a file; else $KUBECONFIG;
// else ~/.kube/config when it exists; else the service account when running in a Pod.
#include <string>

#include "kube/in_cluster.hpp"
#include "kube/kubeconfig.hpp"

namespace sextant::kube {

struct connection_request {
  std::string kubeconfig;   // --kubeconfig
  std::string context;      // --context
  bool in_cluster = false;  // --in-cluster
};

// `files` carries $KUBECONFIG and $HOME (its explicit path is replaced by the request's);
// `pod` the service account's files and environment.
config_result choose_connection(const connection_request& request, kubeconfig_sources files,
                                const in_cluster_sources& pod);

}  // namespace sextant::kube
