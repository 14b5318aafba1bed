#include "kube/kubeconfig.hpp"

#include <catch2/catch.hpp>

#include "kube/base64.hpp"
#include "kube/connection_choice.hpp"
#include "kube/in_cluster.hpp"
#include "kube_test_support.hpp"

using namespace sextant::kube;
using sextant::kube::testing::fixture;
using sextant::kube::testing::read_text;
using sextant::kube::testing::temp_dir;

namespace {

kubeconfig_sources only(const std::filesystem::path& file) {
  kubeconfig_sources sources;
  sources.explicit_path = file;
  return sources;
}

bool mentions(const std::string& text, const std::string& part) {
  INFO(text);
  return text.find(part) != std::string::npos;
}

const char* token_config = R"(
apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://10.1.2.3:6443
    certificate-authority-data: %CA%
users:
- name: dev-user
  user:
    token: s3cr3t
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: ml}
)";

std::string with_ca(std::string text) {
  std::string ca = base64_encode(read_text(fixture("ca.crt")));
  text.replace(text.find("%CA%"), 4, ca);
  return text;
}

}  // namespace

TEST_CASE("a kubeconfig with a token and inline CA resolves its current context", "[kube][kubeconfig]") {
  temp_dir dir;
  config_result result = load_kubeconfig(only(dir.write("config", with_ca(token_config))));
  REQUIRE(result.error.empty());
  REQUIRE(result.value);
  const connection_config& config = *result.value;
  CHECK(config.server.host == "10.1.2.3");
  CHECK(config.server.port == "6443");
  CHECK(config.token == "s3cr3t");
  CHECK(config.ca_pem == read_text(fixture("ca.crt")));
  CHECK(config.ca_file.empty());  // inline data: nothing to re-read
  CHECK(config.namespace_ == "ml");
  CHECK_FALSE(config.insecure_skip_tls_verify);
  CHECK(mentions(config.source, "context dev"));
}

TEST_CASE("file references are read relative to the kubeconfig that names them", "[kube][kubeconfig]") {
  temp_dir dir;
  std::filesystem::copy_file(fixture("ca.crt"), dir.path() / "pki-ca.crt");
  std::filesystem::create_directories(dir.path() / "certs");
  std::filesystem::copy_file(fixture("client.crt"), dir.path() / "certs" / "me.crt");
  std::filesystem::copy_file(fixture("client.key"), dir.path() / "certs" / "me.key");
  auto file = dir.write("nested/config", R"(
current-context: c
clusters:
- name: k
  cluster: {server: "https://kube.example.com", certificate-authority: ../pki-ca.crt, tls-server-name: api.internal}
users:
- name: u
  user: {client-certificate: ../certs/me.crt, client-key: ../certs/me.key}
contexts:
- name: c
  context: {cluster: k, user: u}
)");
  config_result result = load_kubeconfig(only(file));
  REQUIRE(result.value);
  CHECK(result.value->ca_pem == read_text(fixture("ca.crt")));
  // Named so that the client re-reads a replaced bundle.
  CHECK(std::filesystem::equivalent(result.value->ca_file, dir.path() / "pki-ca.crt"));
  CHECK(result.value->client_cert_pem == read_text(fixture("client.crt")));
  CHECK(result.value->client_key_pem == read_text(fixture("client.key")));
  CHECK(result.value->tls_server_name == "api.internal");
  CHECK(result.value->server.port == "443");
  CHECK(result.value->namespace_ == "default");
}

TEST_CASE("client certificate and key may be inline data", "[kube][kubeconfig]") {
  temp_dir dir;
  std::string text = std::string(R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {client-certificate-data: )") +
                     base64_encode(read_text(fixture("client.crt"))) +
                     ", client-key-data: " + base64_encode(read_text(fixture("client.key"))) + R"(}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
)";
  config_result result = load_kubeconfig(only(dir.write("config", text)));
  REQUIRE(result.value);
  CHECK(result.value->insecure_skip_tls_verify);
  CHECK(result.value->client_cert_pem == read_text(fixture("client.crt")));
  CHECK(result.value->client_key_pem == read_text(fixture("client.key")));
}

TEST_CASE("$KUBECONFIG files merge with the first definition winning", "[kube][kubeconfig]") {
  temp_dir dir;
  auto first = dir.write("a.yaml", R"(
current-context: one
clusters: [{name: shared, cluster: {server: "https://first:6443", insecure-skip-tls-verify: true}}]
contexts: [{name: one, context: {cluster: shared, user: alice}}]
)");
  auto second = dir.write("b.yaml", R"(
current-context: two
clusters:
- {name: shared, cluster: {server: "https://second:6443"}}
- {name: other, cluster: {server: "https://other:6443", insecure-skip-tls-verify: true}}
users:
- {name: alice, user: {token: from-second}}
contexts:
- {name: one, context: {cluster: other, user: alice}}
- {name: two, context: {cluster: other, user: alice}}
)");
  kubeconfig_sources sources;
  sources.kubeconfig_env = first.string() + ":" + (dir.path() / "missing.yaml").string() + "::" + second.string();

  config_result merged = load_kubeconfig(sources);
  REQUIRE(merged.value);
  CHECK(merged.value->server.host == "first");  // cluster "shared" and context "one" from a.yaml
  CHECK(merged.value->token == "from-second");  // user "alice" only b.yaml defines

  config_result chosen = load_kubeconfig(sources, "two");
  REQUIRE(chosen.value);
  CHECK(chosen.value->server.host == "other");
}

TEST_CASE("the home folder's .kube/config is read when nothing else is named", "[kube][kubeconfig]") {
  temp_dir dir;
  dir.write(".kube/config", with_ca(token_config));
  kubeconfig_sources sources;
  sources.home = dir.path();
  config_result result = load_kubeconfig(sources);
  REQUIRE(result.value);
  CHECK(result.value->token == "s3cr3t");
}

TEST_CASE("tokenFile and basic auth are read", "[kube][kubeconfig]") {
  temp_dir dir;
  dir.write("token", "file-token\n");
  auto file = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}}]
users:
- {name: t, user: {tokenFile: token}}
- {name: b, user: {username: admin, password: "p:w"}}
contexts:
- {name: c, context: {cluster: k, user: t}}
- {name: basic, context: {cluster: k, user: b}}
)");
  config_result with_file = load_kubeconfig(only(file));
  REQUIRE(with_file.value);
  CHECK(with_file.value->token_file == (dir.path() / "token").string());
  config_result basic = load_kubeconfig(only(file), "basic");
  REQUIRE(basic.value);
  CHECK(basic.value->username == "admin");
  CHECK(basic.value->password == "p:w");
}

TEST_CASE("exec plugins are read with args, env and a resolved command", "[kube][kubeconfig]") {
  temp_dir dir;
  auto file = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://eks.example.com", proxy-url: "http://proxy.corp:3128"}}]
users:
- name: eks
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./bin/get-token
      args: [eks, get-token, --cluster-name, prod]
      env: [{name: AWS_PROFILE, value: prod}]
      provideClusterInfo: true
      installHint: install the aws CLI
- name: gke
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: gke-gcloud-auth-plugin, interactiveMode: Never}
contexts:
- {name: c, context: {cluster: k, user: eks}}
- {name: g, context: {cluster: k, user: gke}}
)");
  config_result eks = load_kubeconfig(only(file));
  REQUIRE(eks.value);
  REQUIRE(eks.value->exec);
  const exec_config& exec = *eks.value->exec;
  CHECK(exec.api_version == "client.authentication.k8s.io/v1beta1");
  CHECK(exec.command == (dir.path() / "./bin/get-token").string());
  CHECK(exec.args == std::vector<std::string>{"eks", "get-token", "--cluster-name", "prod"});
  REQUIRE(exec.env.size() == 1);
  CHECK(exec.env[0].first == "AWS_PROFILE");
  CHECK(exec.env[0].second == "prod");
  CHECK(exec.provide_cluster_info);
  CHECK(exec.install_hint == "install the aws CLI");
  CHECK(exec.interactive_mode == "IfAvailable");
  REQUIRE(eks.value->proxy);
  CHECK(eks.value->proxy->authority() == "proxy.corp:3128");

  config_result gke = load_kubeconfig(only(file), "g");
  REQUIRE(gke.value);
  CHECK(gke.value->exec->command == "gke-gcloud-auth-plugin");  // found in $PATH when run
  CHECK(gke.value->exec->interactive_mode == "Never");
}

TEST_CASE("a kubeconfig that cannot be used is one error naming the field", "[kube][kubeconfig]") {
  temp_dir dir;
  auto error_for = [&dir](const std::string& cluster, const std::string& user, const std::string& context = {}) {
    std::string text = "current-context: c\nclusters: [{name: k, cluster: " + cluster +
                       "}]\nusers: [{name: u, user: " + user +
                       "}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n";
    config_result result = load_kubeconfig(only(dir.write("config", text)), context);
    CHECK_FALSE(result.value);
    return result.error;
  };
  const std::string ok_cluster = R"({server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true})";
  CHECK(mentions(error_for("{insecure-skip-tls-verify: true}", "{}"), "clusters[\"k\"].cluster.server is not set"));
  CHECK(mentions(error_for(R"({server: "http://127.0.0.1:8001"})", "{}"),
                 "server \"http://127.0.0.1:8001\" is not https"));
  CHECK(mentions(error_for(R"({server: "https://h", certificate-authority-data: "!!!"})", "{}"),
                 "clusters[\"k\"].cluster.certificate-authority-data is not valid base64"));
  CHECK(mentions(error_for(R"({server: "https://h", certificate-authority: /nonexistent/ca.crt})", "{}"),
                 "certificate-authority: cannot read /nonexistent/ca.crt"));
  CHECK(mentions(error_for(R"({server: "https://h", certificate-authority: )" + fixture("ca.crt").string() +
                               ", insecure-skip-tls-verify: true}",
                           "{}"),
                 "both insecure-skip-tls-verify and a certificate-authority"));
  CHECK(mentions(
      error_for(R"({server: "https://h", proxy-url: "socks5://p:1080", insecure-skip-tls-verify: true})", "{}"),
      "proxy-url \"socks5://p:1080\": only http:// proxies"));
  CHECK(mentions(error_for(ok_cluster, "{client-certificate: " + fixture("client.crt").string() + "}"),
                 "users[\"u\"].user has a client-certificate but no client-key"));
  CHECK(mentions(error_for(ok_cluster, "{token: t, username: a, password: b}"), "both username/password and a token"));
  CHECK(mentions(error_for(ok_cluster, "{tokenFile: /nonexistent/token}"), "users[\"u\"].user.tokenFile: cannot read"));
  CHECK(mentions(error_for(ok_cluster, "{auth-provider: {name: gcp}}"),
                 "users[\"u\"].user.auth-provider (gcp) is not supported"));
  CHECK(mentions(error_for(ok_cluster, "{exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: x}}"),
                 "users[\"u\"].user.exec.apiVersion \"client.authentication.k8s.io/v1alpha1\" is not supported"));
  CHECK(mentions(error_for(ok_cluster, "{exec: {apiVersion: client.authentication.k8s.io/v1, command: x}}"),
                 "users[\"u\"].user.exec.interactiveMode is required"));
  CHECK(
      mentions(error_for(ok_cluster,
                         "{exec: {apiVersion: client.authentication.k8s.io/v1, command: x, interactiveMode: Always}}"),
               "interactiveMode is Always"));
  CHECK(mentions(error_for(ok_cluster, "{exec: {apiVersion: client.authentication.k8s.io/v1beta1}}"),
                 "users[\"u\"].user.exec.command is not set"));
  CHECK(mentions(error_for(ok_cluster, "{}", "nope"), "context \"nope\" is not defined"));
}

TEST_CASE("missing files, contexts and names are reported", "[kube][kubeconfig]") {
  temp_dir dir;
  CHECK(
      mentions(load_kubeconfig(only(dir.path() / "absent")).error, "cannot read " + (dir.path() / "absent").string()));
  CHECK(mentions(load_kubeconfig(only(dir.write("bad", "clusters: [unclosed"))).error, "is not valid YAML"));
  CHECK(mentions(load_kubeconfig(only(dir.write("nocurrent", "clusters: []\n"))).error, "current-context is not set"));
  CHECK(mentions(load_kubeconfig(only(dir.write("nocluster", R"(
current-context: c
contexts: [{name: c, context: {cluster: gone, user: u}}]
)")))
                     .error,
                 "contexts[\"c\"].context.cluster names \"gone\", which no clusters entry defines"));
  CHECK(mentions(load_kubeconfig(only(dir.write("nouser", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h"}}]
contexts: [{name: c, context: {cluster: k, user: ghost}}]
)")))
                     .error,
                 "contexts[\"c\"].context.user names \"ghost\", which no users entry defines"));
  // A context entry without its body used to throw out of yaml-cpp (found by fuzz_kubeconfig).
  CHECK(mentions(load_kubeconfig(only(dir.write("nobody", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h"}}]
contexts: [{name: c}]
)")))
                     .error,
                 "contexts[\"c\"].context"));
  kubeconfig_sources none;
  none.kubeconfig_env = (dir.path() / "a").string() + ":" + (dir.path() / "b").string();
  CHECK(mentions(load_kubeconfig(none).error, "none of the files in $KUBECONFIG"));
}

TEST_CASE("in-cluster config comes from the service account and the service environment", "[kube][in-cluster]") {
  temp_dir dir;
  dir.write("token", "pod-token\n");
  std::filesystem::copy_file(fixture("ca.crt"), dir.path() / "ca.crt");
  dir.write("namespace", "sextant-system\n");
  std::map<std::string, std::string> env{{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}};
  in_cluster_sources sources;
  sources.account_dir = dir.path();
  sources.getenv = [&env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };

  config_result result = load_in_cluster(sources);
  REQUIRE(result.value);
  CHECK(result.value->server.authority() == "10.96.0.1:443");
  CHECK(result.value->token_file == (dir.path() / "token").string());
  CHECK(result.value->token.empty());  // read (and re-read) by the client, not here
  CHECK(result.value->ca_pem == read_text(fixture("ca.crt")));
  CHECK(result.value->ca_file == (dir.path() / "ca.crt").string());  // rotated like the token
  CHECK(result.value->namespace_ == "sextant-system");

  env["KUBERNETES_SERVICE_HOST"] = "fd00:10:96::1";
  result = load_in_cluster(sources);
  REQUIRE(result.value);
  CHECK(result.value->server.host == "fd00:10:96::1");
  CHECK(result.value->server.authority() == "[fd00:10:96::1]:443");

  env.erase("KUBERNETES_SERVICE_PORT");
  CHECK(mentions(load_in_cluster(sources).error, "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT"));
  env["KUBERNETES_SERVICE_PORT"] = "443";
  std::filesystem::remove(dir.path() / "token");
  CHECK(mentions(load_in_cluster(sources).error, "service account token: cannot read"));
}

TEST_CASE("the connection is chosen as kubectl chooses it", "[kube][kubeconfig]") {
  temp_dir dir;
  auto explicit_file = dir.write("explicit", with_ca(token_config));
  dir.write("pod/token", "pod-token");
  std::filesystem::copy_file(fixture("ca.crt"), dir.path() / "pod" / "ca.crt");
  std::map<std::string, std::string> env;
  in_cluster_sources pod;
  pod.account_dir = dir.path() / "pod";
  pod.getenv = [&env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  kubeconfig_sources files;
  files.home = dir.path() / "home";

  CHECK(mentions(choose_connection({}, files, pod).error, "no cluster to connect to"));
  CHECK(mentions(choose_connection({}, files, pod).error, "--snapshot"));

  env = {{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}};
  config_result in_pod = choose_connection({}, files, pod);
  REQUIRE(in_pod.value);
  CHECK(mentions(in_pod.value->source, "in-cluster"));

  dir.write("home/.kube/config", with_ca(token_config));
  config_result home = choose_connection({}, files, pod);
  REQUIRE(home.value);
  CHECK(home.value->token == "s3cr3t");  // a kubeconfig beats the Pod's account, as in client-go

  config_result forced = choose_connection({"", "", true}, files, pod);
  REQUIRE(forced.value);
  CHECK(mentions(forced.value->source, "in-cluster"));
  CHECK(mentions(choose_connection({explicit_file.string(), "", true}, files, pod).error, "cannot be combined"));

  config_result named = choose_connection({explicit_file.string(), "dev", false}, files, pod);
  REQUIRE(named.value);
  CHECK(mentions(named.value->source, explicit_file.string()));
}
