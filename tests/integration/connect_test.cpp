// Connecting to a real kube-apiserver as users do: a token, a client certificate, an exec
// credential plugin, a Pod's service account, through a proxy; and refusing what must be refused.
#include <algorithm>

#include <catch2/catch.hpp>

#include "connect_proxy.hpp"
#include "kube/api_client.hpp"
#include "kube/in_cluster.hpp"
#include "live_harness.hpp"
#include "sections/core/core_section.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const kind_key pod_type{"", "Pod"};
const kind_key node_type{"", "Node"};
const kind_key job_type{"batch", "Job"};

std::vector<section> core_only() {
  return {core::make_section()};
}

// The cluster's objects of the three core kinds, as the cache must hold them.
void check_cache_matches(live_harness& live, admin_client& admin) {
  auto pods = listed(admin, "/api/v1/pods");
  auto nodes = listed(admin, "/api/v1/nodes");
  auto jobs = listed(admin, "/apis/batch/v1/jobs");
  bool equal = live.run_until(
      [&] { return live.cached(pod_type) == pods && live.cached(node_type) == nodes && live.cached(job_type) == jobs; },
      std::chrono::seconds(10));
  CHECK(live.cached(pod_type) == pods);
  CHECK(live.cached(node_type) == nodes);
  CHECK(live.cached(job_type) == jobs);
  CHECK(equal);
}

std::string exec_kubeconfig(const test_cluster& cluster, const std::filesystem::path& token_file,
                            const std::filesystem::path& runs_file, const std::string& api_version) {
  std::string text =
      "apiVersion: v1\nkind: Config\ncurrent-context: exec\n"
      "clusters:\n- name: test\n  cluster:\n    server: " +
      cluster.server() + "\n    certificate-authority: " + cluster.env("CA_CRT") +
      "\nusers:\n- name: plugin\n  user:\n    exec:\n      apiVersion: " + api_version +
      "\n      command: " + fixture("exec-plugin.sh").string() +
      "\n      args: [get-token, --cluster, test]\n      interactiveMode: Never\n"
      "      provideClusterInfo: true\n      env:\n"
      "      - {name: PLUGIN_TOKEN_FILE, value: " +
      token_file.string() +
      "}\n"
      "      - {name: PLUGIN_RUNS_FILE, value: " +
      runs_file.string() +
      "}\n"
      "      - {name: PLUGIN_EXPIRES_IN, value: \"4\"}\n"
      "contexts:\n- name: exec\n  context: {cluster: test, user: plugin}\n";
  std::filesystem::path file = cluster.dir() / ("exec-" + std::to_string(text.size()) + ".yaml");
  write_text(file, text);
  return file.string();
}

std::size_t count_lines(const std::filesystem::path& file) {
  std::string text = read_text(file);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

double requests(const live_harness& live, const std::string& verb, const std::string& code) {
  return live.metric(kube::api_client::requests_metric, {{"verb", verb}, {"code", code}});
}

}  // namespace

TEST_CASE("sextantd connects as kubeconfigs, plugins and Pods say, and refuses an untrusted server",
          "[integration][connect]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  for (int i = 0; i < 5; ++i) {
    REQUIRE(admin.post("/api/v1/namespaces/ml/pods", pod_object("ml", "p" + std::to_string(i))).ok());
  }
  REQUIRE(admin.post("/api/v1/nodes", node_object("gpu-node-1")).ok());
  REQUIRE(admin.post("/apis/batch/v1/namespaces/ml/jobs", job_object("ml", "train")).ok());

  {
    INFO("a bearer token");
    live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), core_only());
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);
    // A 1.37 server streams the initial lists (sendInitialEvents): one watch per kind, no LIST.
    CHECK(requests(live, "watch", "200") >= 3);
    CHECK(requests(live, "list", "200") == 0);
    CHECK(live.live->find_watch(pod_type)->streaming());
    CHECK(live.store.completeness(pod_type).complete());
  }
  {
    INFO("a client certificate (and no token)");
    kube::connection_config config = kubeconfig(cluster.env("KUBECONFIG_CERT"));
    REQUIRE(config.token.empty());
    REQUIRE_FALSE(config.client_cert_pem.empty());
    live_harness live(std::move(config), core_only());
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);
  }
  {
    INFO("an exec credential plugin, re-run after a 401 and when its credential expires");
    const auto token_file = cluster.dir() / "plugin-token";
    const auto runs_file = cluster.dir() / "plugin-runs";
    write_text(token_file, "not-a-valid-token");
    live_harness live(kubeconfig(exec_kubeconfig(cluster, token_file, runs_file, "client.authentication.k8s.io/v1")),
                      core_only());
    REQUIRE(live.run_until([&] { return !live.live->discovery_error().empty(); }));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("401"));
    CHECK(count_lines(runs_file) >= 2);  // the first run, and the run after the 401
    CHECK_FALSE(live.ready());

    write_text(token_file, cluster.admin_token());  // the user logs in again
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);

    const double refused = requests(live, "get", "401");
    const std::size_t runs = count_lines(runs_file);
    live.run_for(std::chrono::seconds(6));  // past expirationTimestamp (4 s); discovery asks every second
    CHECK(count_lines(runs_file) > runs);
    CHECK(requests(live, "get", "401") == refused);  // renewed before it was refused
    CHECK(live.ready());
  }
  {
    INFO("an exec plugin speaking client.authentication.k8s.io/v1beta1");
    const auto token_file = cluster.dir() / "plugin-token-beta";
    write_text(token_file, cluster.admin_token());
    live_harness live(kubeconfig(exec_kubeconfig(cluster, token_file, cluster.dir() / "runs-beta",
                                                 "client.authentication.k8s.io/v1beta1")),
                      core_only());
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);
  }
  {
    INFO("in a Pod: the service account's token (rotated) and CA, the service environment");
    const auto account = cluster.dir() / "serviceaccount";
    std::filesystem::create_directories(account);
    write_text(account / "token", "expired-token");
    std::filesystem::copy_file(cluster.env("CA_CRT"), account / "ca.crt");
    write_text(account / "namespace", "ml");
    kube::in_cluster_sources pod;
    pod.account_dir = account;
    const std::string port = cluster.env("PORT");
    pod.getenv = [port](const std::string& name) -> std::optional<std::string> {
      if (name == "KUBERNETES_SERVICE_HOST") {
        return "127.0.0.1";
      }
      if (name == "KUBERNETES_SERVICE_PORT") {
        return port;
      }
      return std::nullopt;
    };
    kube::config_result config = kube::load_in_cluster(pod);
    REQUIRE(config.value);
    CHECK(config.value->namespace_ == "ml");
    live_harness live(std::move(*config.value), core_only());
    REQUIRE(live.run_until([&] { return !live.live->discovery_error().empty(); }));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("401"));

    write_text(account / "token", cluster.admin_token());  // the kubelet rotates the token
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);
  }
  {
    INFO("through an HTTP CONNECT proxy (proxy-url)");
    connect_proxy proxy;
    kube::connection_config config = kubeconfig(cluster.env("KUBECONFIG_TOKEN"));
    config.proxy = *kube::parse_url(proxy.url()).value;
    live_harness live(std::move(config), core_only());
    REQUIRE(live.run_until([&] { return live.ready(); }));
    check_cache_matches(live, admin);
    CHECK(proxy.tunnels_opened() >= 4);  // discovery plus a watch per kind
  }
  {
    INFO("a server whose certificate the CA did not sign is refused, with the reason");
    live_harness live(kubeconfig(cluster.env("KUBECONFIG_WRONGCA")), core_only());
    REQUIRE(live.run_until([&] { return !live.live->discovery_error().empty(); }));
    live.run_for(std::chrono::seconds(2));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("certificate is not trusted"));
    CHECK(live.live->readiness() == std::vector<std::string>{"discovery"});
    CHECK(live.store.count(pod_type) == 0);
    CHECK(live.served.all().empty());
  }
  {
    INFO("a server name the certificate does not carry is refused");
    kube::connection_config config = kubeconfig(cluster.env("KUBECONFIG_TOKEN"));
    config.tls_server_name = "not-the-apiserver.example.com";
    live_harness live(std::move(config), core_only());
    REQUIRE(live.run_until([&] { return !live.live->discovery_error().empty(); }));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("not-the-apiserver.example.com"));
    CHECK(live.store.count(pod_type) == 0);
  }
  {
    INFO("an identity without RBAC grants: the lists are unreadable, not pending");
    live_harness live(kubeconfig(cluster.env("KUBECONFIG_NOBODY")), core_only());
    REQUIRE(live.run_until([&] { return live.ready(); }));
    CHECK(live.store.completeness(pod_type).value == list_completeness::state::unreadable);
    CHECK_THAT(live.store.completeness(pod_type).reason, Catch::Contains("forbidden"));
    CHECK(live.store.count(pod_type) == 0);
  }
}
