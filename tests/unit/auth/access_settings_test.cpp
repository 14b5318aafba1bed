// Which caller checks a daemon runs, and the combinations refused at start.
#include <catch2/catch.hpp>

#include "config/daemon_config.hpp"

using namespace sextant;

namespace {
daemon_config parsed(const std::vector<std::string>& args) {
  return parse_command_line(args).config;
}
}  // namespace

TEST_CASE("the auth mode defaults to kubernetes in a Pod and to none elsewhere", "[auth][config]") {
  CHECK(effective_auth(parsed({})) == "none");
  CHECK(effective_auth(parsed({"--in-cluster"})) == "kubernetes");
  CHECK(effective_auth(parsed({"--in-cluster", "--auth=none"})) == "none");
  CHECK(effective_auth(parsed({"--auth", "kubernetes"})) == "kubernetes");
  CHECK_THROWS_WITH(parsed({"--auth=basic"}), Catch::Contains("--auth") && Catch::Contains("kubernetes, none"));
  daemon_config config = parsed({"--auth-cache-seconds=30", "--access-cache-seconds", "5"});
  CHECK(config.auth_cache_seconds == 30);
  CHECK(config.access_cache_seconds == 5);
  CHECK_THROWS_AS(parsed({"--auth-cache-seconds=0"}), config_error);
}

TEST_CASE("loopback addresses", "[auth][config]") {
  for (const char* listen : {"127.0.0.1:8080", "127.1.2.3:1", "localhost:80", "[::1]:8080"}) {
    CHECK(loopback_listen(listen));
  }
  for (const char* listen : {"0.0.0.0:8080", "[::]:8080", "10.0.0.1:80", "127.0.0.1.5:80", "127.0.0:80", "127.a.0.1:80",
                             "127.0.0.256:80", "128.0.0.1:80"}) {
    CHECK_FALSE(loopback_listen(listen));
  }
}

TEST_CASE("auth mode none only on loopback, unless anyone is explicitly allowed", "[auth][config]") {
  CHECK(check_access_settings(parsed({})).empty());
  CHECK_THAT(check_access_settings(parsed({"--listen", "0.0.0.0:8080"})),
             Catch::Contains("--insecure-allow-anyone") && Catch::Contains("0.0.0.0:8080"));
  CHECK(check_access_settings(parsed({"--listen", "0.0.0.0:8080", "--insecure-allow-anyone"})).empty());
  CHECK(check_access_settings(parsed({"--listen", "0.0.0.0:8080", "--in-cluster"})).empty());
  CHECK_THAT(check_access_settings(parsed({"--snapshot", "demo", "--auth=kubernetes"})), Catch::Contains("--snapshot"));
  CHECK_THAT(check_access_settings(parsed({"--tls-cert", "c.pem"})), Catch::Contains("--tls-key"));
  CHECK(check_access_settings(parsed({"--tls-cert", "c.pem", "--tls-key", "k.pem"})).empty());
}

TEST_CASE("the TLS mode: files with a certificate given, self-signed on request, and flags that fit the mode",
          "[tls][config]") {
  CHECK(effective_tls(parsed({})) == "off");
  CHECK(effective_tls(parsed({"--tls-cert", "c.pem", "--tls-key", "k.pem"})) == "files");
  CHECK(effective_tls(parsed({"--tls=self-signed"})) == "self-signed");
  CHECK_THROWS_WITH(parsed({"--tls=on"}), Catch::Contains("--tls") && Catch::Contains("files, self-signed, off"));

  daemon_config own = parsed(
      {"--tls=self-signed", "--tls-san", "sextantd.sextant.svc,10.0.0.7", "--tls-ca-file", "/run/sextantd/ca.crt"});
  CHECK(own.tls_sans == std::vector<std::string>{"sextantd.sextant.svc", "10.0.0.7"});
  CHECK(check_access_settings(own).empty());
  CHECK_THROWS_WITH(parsed({"--tls-san", "a.b,,c"}), Catch::Contains("--tls-san") && Catch::Contains("empty"));
  CHECK_THROWS_WITH(parsed({"--tls-san", "sextantd svc"}),
                    Catch::Contains("--tls-san") && Catch::Contains("\"sextantd svc\""));

  CHECK_THAT(check_access_settings(parsed({"--tls=files"})), Catch::Contains("--tls-cert"));
  CHECK_THAT(check_access_settings(parsed({"--tls=self-signed", "--tls-cert", "c.pem", "--tls-key", "k.pem"})),
             Catch::Contains("--tls=files"));
  CHECK_THAT(check_access_settings(parsed({"--tls=off", "--tls-cert", "c.pem", "--tls-key", "k.pem"})),
             Catch::Contains("--tls=files"));
  CHECK_THAT(check_access_settings(parsed({"--tls-san", "x.svc"})), Catch::Contains("--tls=self-signed"));
  CHECK_THAT(check_access_settings(
                 parsed({"--tls=files", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-ca-file", "ca.crt"})),
             Catch::Contains("--tls-ca-file") && Catch::Contains("--tls=self-signed"));
}
