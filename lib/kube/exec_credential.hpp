#pragma once
// The ExecCredential exchange of client.authentication.k8s.io (v1 and v1beta1): what the
// daemon tells a credential plugin (KUBERNETES_EXEC_INFO) and how it reads the answer.
//
// Pure functions; running the plugin is process_runner's and credential_source's business.
#include <optional>
#include <string>
#include <string_view>

#include "kube/connection_config.hpp"
#include "util/time.hpp"

namespace sextant::kube {

struct exec_credential {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::optional<time_point> expires;  // none: valid until a 401 says otherwise
};

struct exec_credential_result {
  std::optional<exec_credential> value;
  std::string error;
};

// Reads a plugin's standard output. The answer must carry the apiVersion the kubeconfig asked
// for, kind ExecCredential, and a token or a client certificate with its key.
exec_credential_result parse_exec_credential(std::string_view output, const std::string& expected_api_version);

// The KUBERNETES_EXEC_INFO value: the request, with the cluster when provideClusterInfo is set.
std::string exec_info(const exec_config& exec, const connection_config& cluster);

}  // namespace sextant::kube
