#include "kube/exec_credential.hpp"

#include "kube/base64.hpp"
#include "util/json.hpp"

namespace sextant::kube {
namespace {

// A field of the plugin's output, quoted into an error: cut short, since the output is the
// plugin's and a garbled one could run on for megabytes (the token is never quoted).
std::string quoted_short(const std::string& text) {
  constexpr std::size_t most = 64;
  return "\"" + (text.size() > most ? text.substr(0, most) + "…" : text) + "\"";
}

}  // namespace

exec_credential_result parse_exec_credential(std::string_view output, const std::string& expected_api_version) {
  auto fail = [](std::string message) { return exec_credential_result{std::nullopt, std::move(message)}; };
  json answer = json::parse(output.begin(), output.end(), nullptr, false);
  if (answer.is_discarded() || !answer.is_object()) {
    return fail("the plugin's output (" + std::to_string(output.size()) +
                " bytes on stdout) is not a JSON object; it must print one ExecCredential");
  }
  std::string api_version = string_or(answer, {"apiVersion"});
  if (api_version != expected_api_version) {
    return fail("the plugin answered apiVersion " + quoted_short(api_version) + ", but the kubeconfig asked for \"" +
                expected_api_version + "\"");
  }
  if (string_or(answer, {"kind"}) != "ExecCredential") {
    return fail("the plugin's output is not an ExecCredential (kind " + quoted_short(string_or(answer, {"kind"})) +
                ")");
  }
  const json* status = find(answer, {"status"});
  if (status == nullptr || !status->is_object()) {
    return fail("the plugin's ExecCredential has no status");
  }
  exec_credential credential;
  credential.token = string_or(*status, {"token"});
  credential.client_cert_pem = string_or(*status, {"clientCertificateData"});
  credential.client_key_pem = string_or(*status, {"clientKeyData"});
  if (credential.client_cert_pem.empty() != credential.client_key_pem.empty()) {
    return fail(credential.client_cert_pem.empty()
                    ? "the plugin's ExecCredential has status.clientKeyData but no status.clientCertificateData"
                    : "the plugin's ExecCredential has status.clientCertificateData but no status.clientKeyData");
  }
  if (credential.token.empty() && credential.client_cert_pem.empty()) {
    return fail("the plugin's ExecCredential has neither status.token nor status.clientCertificateData");
  }
  if (auto expiry = get_string(*status, {"expirationTimestamp"}); expiry && !expiry->empty()) {
    credential.expires = parse_rfc3339(*expiry);
    if (!credential.expires) {
      return fail("the plugin's status.expirationTimestamp " + quoted_short(*expiry) + " is not an RFC 3339 time");
    }
  }
  return {std::move(credential), {}};
}

std::string exec_info(const exec_config& exec, const connection_config& cluster) {
  json spec = json::object();
  spec["interactive"] = false;
  if (exec.provide_cluster_info) {
    json info = json::object();
    info["server"] = cluster.server.scheme + "://" + cluster.server.authority() + cluster.server.path;
    if (!cluster.tls_server_name.empty()) {
      info["tls-server-name"] = cluster.tls_server_name;
    }
    if (cluster.insecure_skip_tls_verify) {
      info["insecure-skip-tls-verify"] = true;
    }
    if (!cluster.ca_pem.empty()) {
      info["certificate-authority-data"] = base64_encode(cluster.ca_pem);
    }
    if (cluster.proxy) {
      info["proxy-url"] = cluster.proxy->scheme + "://" + cluster.proxy->authority();
    }
    spec["cluster"] = std::move(info);
  }
  json request = json::object();
  request["apiVersion"] = exec.api_version;
  request["kind"] = "ExecCredential";
  request["spec"] = std::move(spec);
  return request.dump();
}

}  // namespace sextant::kube
