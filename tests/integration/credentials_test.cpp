// Faults of the daemon's credentials against a real API server: a service-account token rotated
// on disk, a CA bundle replaced, an exec plugin that hangs or prints garbage, a token revoked.
// Service-account tokens here are TokenRequests bound to a Secret, so deleting the Secret
// revokes one for real; files are replaced by rename, as the kubelet replaces them.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "live_harness.hpp"
#include "sections/core/core_section.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace fs = std::filesystem;

namespace {

const kind_key pods{"", "Pod"};
const std::string account_namespace = "creds";
const std::string account = "sextant";

// Writes beside the file, then renames over it: readers see the old or the new file whole.
void replace_file(const fs::path& path, const std::string& text) {
  const fs::path staged = path.string() + ".new";
  write_text(staged, text);
  fs::rename(staged, path);
}

// A service account that may read everything, as the daemon's would.
void create_reader_account(admin_client& admin) {
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object(account_namespace)).ok());
  REQUIRE(admin
              .post("/api/v1/namespaces/" + account_namespace + "/serviceaccounts",
                    {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", account}}}})
              .ok());
  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1";
  REQUIRE(
      admin
          .post(rbac + "/clusterroles",
                {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                 {"kind", "ClusterRole"},
                 {"metadata", {{"name", "sextant-read"}}},
                 {"rules",
                  json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"get", "list", "watch"}}}})}})
          .ok());
  REQUIRE(
      admin
          .post(rbac + "/clusterrolebindings",
                {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                 {"kind", "ClusterRoleBinding"},
                 {"metadata", {{"name", "sextant-read"}}},
                 {"roleRef",
                  {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "sextant-read"}}},
                 {"subjects",
                  json::array({{{"kind", "ServiceAccount"}, {"name", account}, {"namespace", account_namespace}}})}})
          .ok());
}

// A token of the account bound to a new Secret `secret`: valid until the Secret is deleted.
std::string bound_token(admin_client& admin, const std::string& secret) {
  answer created = admin.post("/api/v1/namespaces/" + account_namespace + "/secrets",
                              {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", secret}}}});
  REQUIRE(created.ok());
  const std::string uid = string_or(created.body(), {"metadata", "uid"});
  answer issued =
      admin.post("/api/v1/namespaces/" + account_namespace + "/serviceaccounts/" + account + "/token",
                 {{"apiVersion", "authentication.k8s.io/v1"},
                  {"kind", "TokenRequest"},
                  {"spec",
                   {{"expirationSeconds", 3600},
                    {"boundObjectRef", {{"apiVersion", "v1"}, {"kind", "Secret"}, {"name", secret}, {"uid", uid}}}}}});
  REQUIRE(issued.ok());
  std::string token = string_or(issued.body(), {"status", "token"});
  REQUIRE_FALSE(token.empty());
  return token;
}

// Deletes the Secret `secret` is bound to and waits until the API server refuses its token.
void revoke(const test_cluster& cluster, admin_client& admin, const std::string& secret, const std::string& token) {
  REQUIRE(admin.remove("/api/v1/namespaces/" + account_namespace + "/secrets/" + secret).ok());
  admin_client holder(cluster.server(), cluster.env("CA_CRT"), token);
  int status = 0;
  for (int i = 0; i < 100 && status != 401; ++i) {
    status = holder.get("/api/v1/namespaces/" + account_namespace + "/serviceaccounts").status;
    if (status != 401) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  REQUIRE(status == 401);
}

// The admin kubeconfig's server, with the account's token read from `token_file`.
kube::connection_config token_file_config(const test_cluster& cluster, const fs::path& token_file) {
  kube::connection_config config = kubeconfig(cluster.env("KUBECONFIG_TOKEN"));
  config.token.clear();
  config.token_file = token_file.string();
  return config;
}

// A kubeconfig naming the CA and token by file, as a mounted kubeconfig would.
fs::path write_kubeconfig(const test_cluster& cluster, const fs::path& ca_file, const fs::path& token_file) {
  const fs::path path = cluster.dir() / "creds-kubeconfig.yaml";
  write_text(path, "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: " +
                       cluster.server() + "\n    certificate-authority: " + ca_file.string() +
                       "\nusers:\n- name: reader\n  user:\n    tokenFile: " + token_file.string() +
                       "\ncontexts:\n- name: test\n  context:\n    cluster: test\n    user: reader\n"
                       "current-context: test\n");
  return path;
}

long long proxy_now(const fault_proxy& proxy) {
  long long latest = 0;
  for (const proxied_request& r : proxy.requests()) {
    latest = std::max({latest, r.ms, r.end_ms});
  }
  return latest;
}

std::vector<proxied_request> refused_since(const fault_proxy& proxy, long long since_ms) {
  std::vector<proxied_request> out;
  for (const proxied_request& r : proxy.requests()) {
    if (r.ms >= since_ms && r.status == 401) {
      out.push_back(r);
    }
  }
  return out;
}

double refused_total(const live_harness& live) {
  double total = 0;
  for (const char* verb : {"get", "list", "watch"}) {
    total += live.metric(kube::api_client::requests_metric, {{"verb", verb}, {"code", "401"}});
  }
  return total;
}

// The times (ms since the epoch) the test's exec plugin ran in `mode`, from its log.
std::vector<long long> plugin_runs(const fs::path& log, const std::string& mode) {
  std::vector<long long> out;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    const std::size_t space = line.find(' ');
    if (space != std::string::npos && line.substr(space + 1) == mode) {
      out.push_back(std::stoll(line.substr(0, space)) / 1000000);
    }
  }
  return out;
}

// A cluster with the reader account, five Pods in "ml", and a token file holding the reader's
// first token, as a projected service-account token volume would.
struct reader_with_token_file {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  std::string first;
  fs::path token_file = cluster.dir() / "sa-token";

  reader_with_token_file() {
    create_reader_account(admin);
    REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
    create_pods(admin, "ml", "before-", 5);
    first = bound_token(admin, "token-first");
    replace_file(token_file, first);
  }
};

}  // namespace

TEST_CASE("a service-account token rotated on disk is used from the next request on, without a restart",
          "[integration][credentials]") {
  reader_with_token_file setup;
  test_cluster& cluster = setup.cluster;
  admin_client& admin = setup.admin;
  const std::string& first = setup.first;
  const fs::path& token_file = setup.token_file;
  const std::string second = bound_token(admin, "token-second");

  fault_proxy proxy(cluster);
  live_harness live(proxy.through(token_file_config(cluster, token_file)), {core::make_section()});
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));

  // The kubelet rotates the token; the old one is then revoked.
  replace_file(token_file, second);
  revoke(cluster, admin, "token-first", first);
  live.run_for(std::chrono::milliseconds(1500));  // discovery (every second) asks meanwhile
  const long long revoked_at = proxy_now(proxy);
  CHECK(proxy.drop_watches() >= 1);  // every watch opens again: with whichever token it has now
  create_pods(admin, "ml", "after-", 5);
  REQUIRE(admin.remove("/api/v1/namespaces/ml/pods/before-0").ok());
  REQUIRE(converges(live, admin));
  CHECK(live.store.count(pods) == 5 + 5 - 1);
  CHECK(live.ready());
  CHECK(live.run_until([&] { return !live.store.interrupted(pods).has_value(); }));

  // Had the daemon kept the first token, the API server would have refused it.
  CHECK(refused_since(proxy, revoked_at).empty());
  CHECK(refused_total(live) == 0);
  CHECK_FALSE(requests_to(proxy.requests(), "/api/v1/pods", true, revoked_at).empty());
}

TEST_CASE("a replaced CA bundle is trusted from the next connection on, and until then /readyz says why not",
          "[integration][credentials]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 5);
  const fs::path ca_file = cluster.dir() / "bundle-ca.crt";
  const fs::path token_file = cluster.dir() / "admin-token";
  replace_file(ca_file, read_text(cluster.env("WRONG_CA_CRT")));
  replace_file(token_file, cluster.admin_token());
  const fs::path config_file = write_kubeconfig(cluster, ca_file, token_file);

  {
    INFO("in process: the harness' live_source");
    live_harness live(kubeconfig(config_file.string()), {core::make_section()});
    REQUIRE(live.run_until([&] { return !live.live->discovery_error().empty(); }));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("certificate is not trusted"));
    CHECK_THAT(live.live->discovery_error(), Catch::Contains("checked against the CA in " + ca_file.string()));
    live.run_for(std::chrono::seconds(2));
    CHECK_FALSE(live.ready());
    CHECK(live.store.count(pods) == 0);

    replace_file(ca_file, read_text(cluster.env("CA_CRT")));
    // Discovery retries after 1 s doubling (with jitter), so within about 10 s of the start.
    CHECK(live.run_until([&] { return live.ready(); }, std::chrono::seconds(20)));
    CHECK(live.live->discovery_error().empty());
    REQUIRE(converges(live, admin));
  }

  replace_file(ca_file, read_text(cluster.env("WRONG_CA_CRT")));
  {
    INFO("sextantd itself: what /readyz says");
    sextantd_process daemon({"--kubeconfig", config_file.string()}, cluster.dir() / "creds-sextantd.log");
    std::optional<answer> refused;
    for (int i = 0; i < 100; ++i) {
      answer ready = http_get(daemon.url(), "/readyz");
      if (ready.status == 503 && ready.text.find("certificate") != std::string::npos) {
        refused = ready;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    REQUIRE(refused);
    CHECK_THAT(refused->text, Catch::Contains("not synced yet: discovery"));
    CHECK_THAT(refused->text, Catch::Contains("the API server's certificate is not trusted"));
    CHECK_THAT(refused->text, Catch::Contains(ca_file.string()));

    replace_file(ca_file, read_text(cluster.env("CA_CRT")));
    REQUIRE(daemon.wait_ready(std::chrono::seconds(40)));
    json listed_pods = daemon.get("/api/v1/core/pods?namespace=ml");
    INFO(listed_pods.dump().substr(0, 2000));
    CHECK(listed_pods.dump().find("before-4") != std::string::npos);
  }
}

TEST_CASE("an exec plugin that prints garbage is retried with growing pauses, one that hangs is stopped at its timeout",
          "[integration][credentials]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  create_pods(admin, "ml", "before-", 5);
  const fs::path dir = cluster.dir() / "plugin";
  fs::create_directories(dir);
  const fs::path plugin = dir / "credential-plugin.sh";
  // Each run is logged with its mode; the mode comes from the file `mode`. Its credential
  // expires after 3 s, so that the daemon runs it again soon.
  write_text(plugin,
             "#!/bin/sh\n"
             "mode=$(cat \"$PLUGIN_DIR/mode\")\n"
             "echo \"$(date +%s%N) $mode\" >> \"$PLUGIN_DIR/runs\"\n"
             "case \"$mode\" in\n"
             "  hang) exec sleep 30 ;;\n"
             "  garbage) echo 'Bearer-looking-secret-words, not JSON at all'; exit 0 ;;\n"
             "esac\n"
             "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
             "\"status\":{\"token\":\"%s\",\"expirationTimestamp\":\"%s\"}}' \"$(cat \"$PLUGIN_DIR/token\")\" "
             "\"$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)\"\n");
  fs::permissions(plugin, fs::perms::owner_all);
  write_text(dir / "token", cluster.admin_token());
  replace_file(dir / "mode", "ok");

  fault_proxy proxy(cluster);
  kube::connection_config config = proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN")));
  config.token.clear();
  config.token_file.clear();
  kube::exec_config exec;
  exec.api_version = "client.authentication.k8s.io/v1";
  exec.command = plugin.string();
  exec.env = {{"PLUGIN_DIR", dir.string()}};
  config.exec = exec;
  kube::live_options options = fast_options();
  options.credentials.plugin_timeout = std::chrono::seconds(2);
  options.credentials.plugin_backoff = {std::chrono::milliseconds(500), std::chrono::seconds(4), 2.0, 0.5,
                                        std::chrono::hours(1)};
  live_harness live(config, {core::make_section()}, options);
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));

  // Garbage from now on. Once the credential expired and a run failed, every watch is cut, so
  // that many callers ask at once: the plugin's own pauses must hold them back.
  replace_file(dir / "mode", "garbage");
  REQUIRE(live.run_until([&] { return !plugin_runs(dir / "runs", "garbage").empty(); }, std::chrono::seconds(10)));
  CHECK(proxy.drop_watches() >= 1);
  bool marked = false;
  live.run_until(
      [&] {
        marked = marked || live.store.interrupted(pods).has_value();
        return false;
      },
      std::chrono::seconds(12));
  CHECK(marked);  // the views said the Pods may be out of date
  const kube::reflector* watch = live.live->find_watch(pods);
  REQUIRE(watch != nullptr);
  const std::string garbage_error = watch->last_error();
  CHECK_THAT(garbage_error, Catch::Contains("exec credential plugin " + plugin.string()));
  CHECK_THAT(garbage_error, Catch::Contains("is not a JSON object"));
  CHECK(garbage_error.find("Bearer-looking-secret-words") == std::string::npos);
  CHECK(garbage_error.size() < 400);
  CHECK(live.ready());  // what was read is still served

  const std::vector<long long> runs = plugin_runs(dir / "runs", "garbage");
  std::vector<long long> gaps;
  std::string described;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    gaps.push_back(runs[i] - runs[i - 1]);
    described += std::to_string(gaps.back()) + " ";
  }
  INFO("pauses between garbage runs (ms): " << described);
  // The pause is 0.5 s doubling to 4 s, each up to 1.5 times that; a caller then comes within
  // the watches' backoff (at most 2 s here). Never sooner (no hot loop), never a fixed pause.
  long long base = 500;
  for (long long gap : gaps) {
    CHECK(gap >= base - 50);
    CHECK(gap <= base * 3 / 2 + 2100);
    base = std::min<long long>(base * 2, 4000);
  }
  CHECK(gaps.size() >= 3);
  CHECK(runs.size() <= 8);

  // A plugin that hangs is stopped at the timeout, and says so.
  replace_file(dir / "mode", "hang");
  REQUIRE(live.run_until([&] { return watch->last_error().find("did not finish within 2s") != std::string::npos; },
                         std::chrono::seconds(20)));
  CHECK_THAT(watch->last_error(), Catch::Contains("exec credential plugin " + plugin.string() +
                                                  " did not finish within 2s and was stopped"));

  // Fixed: the next run after the (capped) pause connects, and the cache is the server's again.
  create_pods(admin, "ml", "meanwhile-", 3);
  replace_file(dir / "mode", "ok");
  REQUIRE(live.run_until([&] { return !live.store.interrupted(pods).has_value(); }, std::chrono::seconds(20)));
  REQUIRE(converges(live, admin));
  CHECK(live.store.count(pods) == 5 + 3);
  CHECK(live.ready());
}

TEST_CASE("a revoked token is re-read once, then reported as refused credentials naming the file, and replaced",
          "[integration][credentials]") {
  reader_with_token_file setup;
  test_cluster& cluster = setup.cluster;
  admin_client& admin = setup.admin;
  const std::string& first = setup.first;
  const fs::path& token_file = setup.token_file;

  fault_proxy proxy(cluster);
  // Watches end every 2-3 s, as the API server ends them after timeoutSeconds, and open again:
  // an open watch outlives its token, so the refusal shows when one is opened.
  kube::live_options options = fast_options();
  options.reflector.watch_timeout_min = std::chrono::seconds(2);
  options.reflector.watch_timeout_max = std::chrono::seconds(3);
  live_harness live(proxy.through(token_file_config(cluster, token_file)), {core::make_section()}, options);
  REQUIRE(live.run_until([&] { return live.ready(); }));
  REQUIRE(converges(live, admin));

  revoke(cluster, admin, "token-first", first);
  const long long revoked_at = proxy_now(proxy);
  create_pods(admin, "ml", "unheard-", 3);
  bool marked = false;
  REQUIRE(live.run_until(
      [&] {
        marked = marked || live.store.interrupted(pods).has_value();
        const kube::reflector* watch = live.live->find_watch(pods);
        return marked && watch != nullptr && watch->last_error().find("401") != std::string::npos;
      },
      std::chrono::seconds(20)));
  const std::string said = live.live->find_watch(pods)->last_error();
  CHECK_THAT(said, Catch::Contains("the API server refused the credentials (401) from the token file " +
                                   token_file.string() + ", also once read again"));
  CHECK(said.find(first) == std::string::npos);
  REQUIRE(live.store.interrupted(pods).has_value());
  CHECK_THAT(live.store.interrupted(pods)->reason, Catch::Contains("refused the credentials (401)"));
  CHECK(live.ready());  // what was read is still served, marked as possibly out of date
  CHECK(live.store.count(pods) == 5);

  // Retried with backoff (100 ms doubling to 1 s here), each try re-reading the file once.
  const long long window_from = proxy_now(proxy);
  live.run_for(std::chrono::seconds(5));
  std::size_t pod_refusals = 0;
  for (const proxied_request& r : refused_since(proxy, window_from)) {
    pod_refusals += r.path == "/api/v1/pods" ? 1 : 0;
  }
  CHECK(pod_refusals >= 2);
  CHECK(pod_refusals <= 2 * 12);  // two requests (the re-read's retry) per attempt, at most ~10 attempts
  CHECK(refused_since(proxy, revoked_at).size() <= 200);
  CHECK_THAT(live.live->discovery_error(), Catch::Contains("refused the credentials (401)"));

  // A valid token in the file: everything recovers, nothing lost.
  replace_file(token_file, bound_token(admin, "token-second"));
  REQUIRE(converges(live, admin, std::chrono::seconds(20)));
  CHECK(live.store.count(pods) == 5 + 3);
  CHECK(live.run_until([&] { return !live.store.interrupted(pods).has_value(); }));
  CHECK(live.ready());
  CHECK(live.run_until([&] { return live.live->discovery_error().empty(); }));
}
