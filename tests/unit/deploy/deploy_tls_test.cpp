// deploy/ serves HTTPS by default: the Deployment's flags, as the kubelet hands them over, parse
// and pass the start-up checks with TLS on; the self-signed certificate names the Service callers
// use; and the cert-manager example's Certificate, Secret mount and flags agree.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "config/daemon_config.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

std::vector<YAML::Node> documents_of_kind(const std::string& file, const std::string& kind) {
  std::vector<YAML::Node> found;
  for (const YAML::Node& document : YAML::LoadAllFromFile((testing::source_dir() / "deploy" / file).string())) {
    if (document["kind"] && document["kind"].as<std::string>() == kind) {
      found.push_back(document);
    }
  }
  REQUIRE_FALSE(found.empty());
  return found;
}

// The container's args with $(POD_IP) expanded, as the kubelet does from the env it declares.
std::vector<std::string> kubelet_args(const YAML::Node& container, const std::string& pod_ip) {
  std::vector<std::string> args;
  for (const YAML::Node& arg : container["args"]) {
    std::string text = arg.as<std::string>();
    for (std::size_t at = text.find("$(POD_IP)"); at != std::string::npos; at = text.find("$(POD_IP)")) {
      text.replace(at, 9, pod_ip);
    }
    args.push_back(text);
  }
  return args;
}

// The flags that are not about TLS, in their order.
std::vector<std::string> without_tls_flags(const std::vector<std::string>& args) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--tls-cert" || args[i] == "--tls-key") {
      ++i;  // and the file after it
    } else if (!args[i].starts_with("--tls")) {
      kept.push_back(args[i]);
    }
  }
  return kept;
}

}  // namespace

TEST_CASE("the shipped Deployment serves HTTPS with a certificate it makes for the Service's names", "[deploy][tls]") {
  const YAML::Node deployment = documents_of_kind("deployment.yaml", "Deployment")[0];
  const YAML::Node service = documents_of_kind("deployment.yaml", "Service")[0];
  const YAML::Node container = deployment["spec"]["template"]["spec"]["containers"][0];
  bool pod_ip_from_status = false;
  for (const YAML::Node& env : container["env"]) {
    pod_ip_from_status =
        pod_ip_from_status || (env["name"].as<std::string>() == "POD_IP" &&
                               env["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>() == "status.podIP");
  }
  CHECK(pod_ip_from_status);

  const parsed_command_line parsed = parse_command_line(kubelet_args(container, "10.244.1.7"));
  CHECK(check_access_settings(parsed.config).empty());
  CHECK(effective_tls(parsed.config) == "self-signed");
  CHECK(effective_auth(parsed.config) == "kubernetes");
  const std::string name = service["metadata"]["name"].as<std::string>();
  const std::string ns = service["metadata"]["namespace"].as<std::string>();
  for (const std::string& expected : {name, name + "." + ns, name + "." + ns + ".svc",
                                      name + "." + ns + ".svc.cluster.local", std::string("10.244.1.7")}) {
    CAPTURE(expected);
    CHECK(std::count(parsed.config.tls_sans.begin(), parsed.config.tls_sans.end(), expected) == 1);
  }
  // The Service speaks HTTPS on the API port; the probes stay on their own plain port.
  REQUIRE(service["spec"]["ports"].size() == 1);
  CHECK(service["spec"]["ports"][0]["name"].as<std::string>() == "https");
  CHECK(service["spec"]["ports"][0]["appProtocol"].as<std::string>() == "https");
  CHECK(container["readinessProbe"]["httpGet"]["port"].as<std::string>() == "probes");
  CHECK_FALSE(container["readinessProbe"]["httpGet"]["scheme"]);
}

TEST_CASE("the cert-manager example: its Certificate's Secret is what the patched Deployment mounts and serves",
          "[deploy][tls]") {
  const YAML::Node patch = YAML::LoadFile((testing::source_dir() / "deploy/cert-manager/serve-secret.yaml").string());
  const YAML::Node container = patch["spec"]["template"]["spec"]["containers"][0];
  const parsed_command_line parsed = parse_command_line(kubelet_args(container, "10.244.1.7"));
  CHECK(check_access_settings(parsed.config).empty());
  CHECK(effective_tls(parsed.config) == "files");
  const std::string mounted = container["volumeMounts"][0]["mountPath"].as<std::string>();
  CHECK(parsed.config.tls_cert == mounted + "/tls.crt");
  CHECK(parsed.config.tls_key == mounted + "/tls.key");
  // A strategic merge patch replaces a list of strings whole: apart from its TLS flags, the patch
  // must pass the Deployment's own flags, or applying it would silently drop or change them.
  const YAML::Node shipped = documents_of_kind("deployment.yaml", "Deployment")[0];
  CHECK(without_tls_flags(kubelet_args(container, "")) ==
        without_tls_flags(kubelet_args(shipped["spec"]["template"]["spec"]["containers"][0], "")));
  const YAML::Node volume = patch["spec"]["template"]["spec"]["volumes"][0];
  CHECK(volume["name"].as<std::string>() == container["volumeMounts"][0]["name"].as<std::string>());
  CHECK(volume["secret"]["defaultMode"].as<int>() == 0440);  // the key kept from other users

  const YAML::Node service = documents_of_kind("deployment.yaml", "Service")[0];
  const std::string service_name =
      service["metadata"]["name"].as<std::string>() + "." + service["metadata"]["namespace"].as<std::string>() + ".svc";
  bool served_certificate = false;
  for (const YAML::Node& certificate : documents_of_kind("cert-manager/certificate.yaml", "Certificate")) {
    if (certificate["spec"]["secretName"].as<std::string>() != volume["secret"]["secretName"].as<std::string>()) {
      continue;
    }
    served_certificate = true;
    std::vector<std::string> names;
    for (const YAML::Node& dns : certificate["spec"]["dnsNames"]) {
      names.push_back(dns.as<std::string>());
    }
    CHECK(std::count(names.begin(), names.end(), service_name) == 1);
    CHECK(certificate["metadata"]["namespace"].as<std::string>() == service["metadata"]["namespace"].as<std::string>());
  }
  CHECK(served_certificate);
}
