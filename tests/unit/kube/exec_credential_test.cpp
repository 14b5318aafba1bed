#include "kube/exec_credential.hpp"

#include <algorithm>
#include <thread>

#include <catch2/catch.hpp>

#include "kube/credential_source.hpp"
#include "kube/process_runner.hpp"
#include "kube_test_support.hpp"

using namespace sextant;
using namespace sextant::kube;
using sextant::kube::testing::fixture;
using sextant::kube::testing::read_text;
using sextant::kube::testing::run_to_end;
using sextant::kube::testing::temp_dir;

namespace {
const std::string v1 = "client.authentication.k8s.io/v1";
const std::string v1beta1 = "client.authentication.k8s.io/v1beta1";
}  // namespace

TEST_CASE("ExecCredential answers are read in v1 and v1beta1", "[kube][exec]") {
  auto token = parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
          "status":{"token":"k8s-aws-v1.abc","expirationTimestamp":"2026-11-29T12:15:00Z"}})",
      v1);
  REQUIRE(token.value);
  CHECK(token.value->token == "k8s-aws-v1.abc");
  REQUIRE(token.value->expires);
  CHECK(format_rfc3339(*token.value->expires) == "2026-11-29T12:15:00Z");

  auto cert = parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential",
          "status":{"clientCertificateData":"-----BEGIN CERTIFICATE-----\n","clientKeyData":"-----BEGIN PRIVATE KEY-----\n"}})",
      v1beta1);
  REQUIRE(cert.value);
  CHECK(cert.value->token.empty());
  CHECK(cert.value->client_cert_pem == "-----BEGIN CERTIFICATE-----\n");
  CHECK_FALSE(cert.value->expires);
}

TEST_CASE("ExecCredential answers that cannot be used say why", "[kube][exec]") {
  auto error = [](const std::string& text, const std::string& wanted = v1) {
    auto result = parse_exec_credential(text, wanted);
    CHECK_FALSE(result.value);
    return result.error;
  };
  CHECK_THAT(error("not json"), Catch::Contains("not a JSON object"));
  CHECK_THAT(
      error(R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}})"),
      Catch::Contains("answered apiVersion \"client.authentication.k8s.io/v1beta1\""));
  CHECK_THAT(error(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Secret","status":{"token":"t"}})"),
             Catch::Contains("not an ExecCredential"));
  CHECK_THAT(error(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})"),
             Catch::Contains("has no status"));
  CHECK_THAT(error(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})"),
             Catch::Contains("neither status.token nor status.clientCertificateData"));
  CHECK_THAT(
      error(
          R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"x"}})"),
      Catch::Contains("no status.clientKeyData"));
  CHECK_THAT(
      error(
          R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"soon"}})"),
      Catch::Contains("is not an RFC 3339 time"));
}

TEST_CASE("KUBERNETES_EXEC_INFO carries the cluster only when asked", "[kube][exec]") {
  connection_config cluster;
  cluster.server = *parse_url("https://10.0.0.1:6443").value;
  cluster.ca_pem = "PEM";
  exec_config exec;
  exec.api_version = v1;
  json plain = json::parse(exec_info(exec, cluster));
  CHECK(plain["apiVersion"] == v1);
  CHECK(plain["kind"] == "ExecCredential");
  CHECK(plain["spec"]["interactive"] == false);
  CHECK_FALSE(plain["spec"].contains("cluster"));
  exec.provide_cluster_info = true;
  json with_cluster = json::parse(exec_info(exec, cluster));
  CHECK(with_cluster["spec"]["cluster"]["server"] == "https://10.0.0.1:6443");
  CHECK(with_cluster["spec"]["cluster"]["certificate-authority-data"] == "UEVN");
}

TEST_CASE("programs run without blocking and report output, exit code and timeouts", "[kube][exec]") {
  net::io_context io;
  auto ran =
      run_to_end(io, run_process({"/bin/sh", {"-c", "echo out; echo err >&2; exit 3"}, {}, std::chrono::seconds(10)}));
  REQUIRE(ran);
  CHECK(ran->spawn_error.empty());
  CHECK(ran->out == "out\n");
  CHECK(ran->err == "err\n");
  CHECK(ran->exit_code == 3);

  auto env = run_to_end(
      io, run_process({"sh", {"-c", "printf %s \"$GREETING\""}, {{"GREETING", "hi"}}, std::chrono::seconds(10)}));
  REQUIRE(env);
  CHECK(env->out == "hi");
  CHECK(env->ok());

  auto start = std::chrono::steady_clock::now();
  auto slow = run_to_end(io, run_process({"/bin/sh", {"-c", "sleep 30"}, {}, std::chrono::milliseconds(200)}));
  REQUIRE(slow);
  CHECK(slow->timed_out);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));

  auto missing = run_to_end(io, run_process({"/nonexistent/plugin", {}, {}, std::chrono::seconds(5)}));
  REQUIRE(missing);
  CHECK_THAT(missing->spawn_error, Catch::Contains("cannot run /nonexistent/plugin"));
}

namespace {

connection_config exec_config_for(const temp_dir& dir, const std::string& api_version) {
  connection_config config;
  config.server = *parse_url("https://127.0.0.1:6443").value;
  exec_config exec;
  exec.api_version = api_version;
  exec.command = fixture("exec-plugin.sh").string();
  exec.args = {"--cluster", "test"};
  exec.env = {{"PLUGIN_TOKEN_FILE", (dir.path() / "token").string()},
              {"PLUGIN_RUNS_FILE", (dir.path() / "runs").string()},
              {"PLUGIN_INFO_FILE", (dir.path() / "info").string()}};
  config.exec = exec;
  return config;
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("an exec plugin's token is used until it expires or is refused", "[kube][exec]") {
  temp_dir dir;
  dir.write("token", "first");
  connection_config config = exec_config_for(dir, v1);
  config.exec->env.emplace_back("PLUGIN_EXPIRES_IN", "3600");
  fixed_clock wall(std::chrono::system_clock::now());
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall);

  auto first = run_to_end(io, credentials.current());
  REQUIRE(first);
  REQUIRE(first->value);
  CHECK(first->value->authorization == "Bearer first");
  CHECK(read_text(dir.path() / "runs") == "run --cluster test\n");
  json info = json::parse(read_text(dir.path() / "info"));
  CHECK(info["apiVersion"] == v1);

  dir.write("token", "second");
  auto cached = run_to_end(io, credentials.current());
  REQUIRE(cached->value);
  CHECK(cached->value->authorization == "Bearer first");  // still valid: the plugin is not run again
  CHECK(credentials.plugin_runs() == 1);

  wall.advance(std::chrono::seconds(3700));  // past expirationTimestamp
  auto renewed = run_to_end(io, credentials.current());
  REQUIRE(renewed->value);
  CHECK(renewed->value->authorization == "Bearer second");
  CHECK(renewed->value->generation != first->value->generation);
  CHECK(credentials.plugin_runs() == 2);

  dir.write("token", "third");
  CHECK(credentials.invalidate(renewed->value->generation));  // a 401
  auto after_401 = run_to_end(io, credentials.current());
  REQUIRE(after_401->value);
  CHECK(after_401->value->authorization == "Bearer third");
  CHECK(lines(read_text(dir.path() / "runs")) == 3);
}

TEST_CASE("callers waiting at once share one plugin run", "[kube][exec]") {
  temp_dir dir;
  dir.write("token", "shared");
  connection_config config = exec_config_for(dir, v1beta1);
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall);
  std::vector<std::string> seen;
  for (int i = 0; i < 5; ++i) {
    net::co_spawn(io, credentials.current(), [&seen](std::exception_ptr, auth_result result) {
      seen.push_back(result.value ? result.value->authorization : result.error);
    });
  }
  REQUIRE(sextant::kube::testing::run_until(io, [&] { return seen.size() == 5; }));
  for (const std::string& s : seen) {
    CHECK(s == "Bearer shared");
  }
  CHECK(credentials.plugin_runs() == 1);
}

TEST_CASE("a failing plugin is reported with its words and not re-run at once", "[kube][exec]") {
  temp_dir dir;
  connection_config config = exec_config_for(dir, v1);
  config.exec->env.emplace_back("PLUGIN_FAIL", "error: you must be logged in to the server");
  config.exec->install_hint = "run: cloud auth login";
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall);
  auto failed = run_to_end(io, credentials.current());
  REQUIRE(failed);
  CHECK_FALSE(failed->value);
  CHECK_THAT(failed->error, Catch::Contains("failed (exit code 1)"));
  CHECK_THAT(failed->error, Catch::Contains("you must be logged in"));
  auto again = run_to_end(io, credentials.current());
  CHECK(again->error == failed->error);
  CHECK(credentials.plugin_runs() == 1);

  config.exec->command = (dir.path() / "no-such-plugin").string();
  credential_source missing(io.get_executor(), config, wall);
  auto not_found = run_to_end(io, missing.current());
  CHECK_THAT(not_found->error, Catch::Contains("No such file"));
  CHECK_THAT(not_found->error, Catch::Contains("run: cloud auth login"));
}

TEST_CASE("an exec plugin may hand out a client certificate", "[kube][exec]") {
  temp_dir dir;
  connection_config config = exec_config_for(dir, v1);
  config.exec->env.emplace_back("PLUGIN_CERT_FILE", fixture("client.crt").string());
  config.exec->env.emplace_back("PLUGIN_KEY_FILE", fixture("client.key").string());
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall);
  auto result = run_to_end(io, credentials.current());
  REQUIRE(result->value);
  CHECK(result->value->authorization.empty());
  CHECK(result->value->client_cert_pem == read_text(fixture("client.crt")));
  CHECK(result->value->client_key_pem == read_text(fixture("client.key")));
}

TEST_CASE("a token file is re-read when it changes and after a 401", "[kube][credentials]") {
  temp_dir dir;
  auto token = dir.write("token", "one\n");
  connection_config config;
  config.token_file = token.string();
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall);
  auto first = run_to_end(io, credentials.current());
  REQUIRE(first->value);
  CHECK(first->value->authorization == "Bearer one");

  // Rotation as the kubelet does it: a new file renamed over the old one.
  dir.write("token.new", "two\n");
  std::filesystem::rename(dir.path() / "token.new", token);
  auto rotated = run_to_end(io, credentials.current());
  CHECK(rotated->value->authorization == "Bearer two");
  CHECK(rotated->value->generation != first->value->generation);

  CHECK(credentials.invalidate(rotated->value->generation));
  auto reread = run_to_end(io, credentials.current());
  CHECK(reread->value->authorization == "Bearer two");

  connection_config basic;
  basic.username = "admin";
  basic.password = "secret";
  credential_source basic_credentials(io.get_executor(), basic, wall);
  auto b = run_to_end(io, basic_credentials.current());
  CHECK(b->value->authorization == "Basic YWRtaW46c2VjcmV0");
  CHECK_FALSE(basic_credentials.invalidate(b->value->generation));  // nothing to refresh
}

TEST_CASE("a failing plugin is run again after pauses that double with jitter, reset by a success",
          "[kube][exec][backoff]") {
  temp_dir dir;
  connection_config config = exec_config_for(dir, v1);
  dir.write("token", "good");
  config.exec->env.emplace_back("PLUGIN_FAIL", "error: not logged in");
  credential_options options;
  options.plugin_backoff = {std::chrono::milliseconds(100), std::chrono::milliseconds(800), 2.0, 0.5,
                            std::chrono::hours(1)};
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall, options);

  // Asked every 10 ms, as many watches would: the plugin runs only when its pause is over.
  std::vector<std::chrono::steady_clock::time_point> started;
  auto ask_for = [&](std::chrono::milliseconds duration) {
    const auto until = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < until) {
      const std::size_t before = credentials.plugin_runs();
      const auto at = std::chrono::steady_clock::now();
      auto result = run_to_end(io, credentials.current());
      REQUIRE(result);
      if (credentials.plugin_runs() != before) {
        started.push_back(at);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  ask_for(std::chrono::milliseconds(2500));
  std::vector<long long> gaps;
  std::string described;
  for (std::size_t i = 1; i < started.size(); ++i) {
    gaps.push_back(std::chrono::duration_cast<std::chrono::milliseconds>(started[i] - started[i - 1]).count());
    described += std::to_string(gaps.back()) + " ";
  }
  INFO("pauses (ms): " << described);
  // 100, 200, 400, 800, 800 ms, each stretched by up to half; a run itself takes a few ms.
  REQUIRE(gaps.size() >= 3);
  long long base = 100;
  for (long long gap : gaps) {
    CHECK(gap >= base);
    CHECK(gap <= base * 3 / 2 + 150);
    base = std::min<long long>(base * 2, 800);
  }
  CHECK(started.size() <= 6);

  // A success resets the pauses: the next failure is retried after 100 ms again.
  config.exec->env.pop_back();
  while (credentials.plugin_runs() == started.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto result = run_to_end(io, credentials.current());
    REQUIRE(result);
  }
  auto good = run_to_end(io, credentials.current());
  REQUIRE(good->value);
  CHECK(good->value->authorization == "Bearer good");
  config.exec->env.emplace_back("PLUGIN_FAIL", "error: logged out");
  REQUIRE(credentials.invalidate(good->value->generation));  // a 401
  started.clear();
  const std::size_t runs_before = credentials.plugin_runs();
  ask_for(std::chrono::milliseconds(400));
  CHECK(credentials.plugin_runs() - runs_before >= 2);  // at once, then after 100-150 ms
  REQUIRE(started.size() >= 2);
  CHECK(started[1] - started[0] <= std::chrono::milliseconds(150 + 150));
}

TEST_CASE("a plugin's timeout is an option, and its error names the plugin and the timeout", "[kube][exec]") {
  temp_dir dir;
  const std::filesystem::path plugin = dir.write("hang.sh", "#!/bin/sh\nexec sleep 30\n");
  std::filesystem::permissions(plugin, std::filesystem::perms::owner_all);
  connection_config config = exec_config_for(dir, v1);
  config.exec->command = plugin.string();
  credential_options options;
  options.plugin_timeout = std::chrono::seconds(1);
  wall_clock wall;
  net::io_context io;
  credential_source credentials(io.get_executor(), config, wall, options);
  const auto start = std::chrono::steady_clock::now();
  auto hung = run_to_end(io, credentials.current());
  REQUIRE(hung);
  CHECK_FALSE(hung->value);
  CHECK(hung->error == "exec credential plugin " + plugin.string() + " did not finish within 1s and was stopped");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(credential_options{}.plugin_timeout == std::chrono::seconds(60));
}

TEST_CASE("garbage from a plugin is described briefly, never quoted whole", "[kube][exec]") {
  auto garbage = parse_exec_credential("token: abcdef-very-secret\n", v1);
  CHECK_FALSE(garbage.value);
  CHECK(garbage.error.find("abcdef-very-secret") == std::string::npos);
  CHECK_THAT(garbage.error, Catch::Contains("(26 bytes on stdout) is not a JSON object"));
  auto long_kind = parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":")" + std::string(5000, 'x') + R"("})", v1);
  CHECK_FALSE(long_kind.value);
  CHECK(long_kind.error.size() < 200);
}
