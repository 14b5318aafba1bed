#include "kube/url.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kube/base64.hpp"

using namespace sextant::kube;

TEST_CASE("server URLs are split into host, port and path", "[kube][url]") {
  auto plain = parse_url("https://api.example.com:6443");
  REQUIRE(plain.value);
  CHECK(plain.value->host == "api.example.com");
  CHECK(plain.value->port == "6443");
  CHECK(plain.value->path.empty());
  CHECK(plain.value->authority() == "api.example.com:6443");

  auto defaulted = parse_url("https://10.0.0.1/");
  REQUIRE(defaulted.value);
  CHECK(defaulted.value->port == "443");
  CHECK(defaulted.value->path.empty());

  auto prefixed = parse_url("https://rancher.example.com/k8s/clusters/c-abc/");
  REQUIRE(prefixed.value);
  CHECK(prefixed.value->path == "/k8s/clusters/c-abc");

  auto v6 = parse_url("https://[fd00::1]:6443");
  REQUIRE(v6.value);
  CHECK(v6.value->host == "fd00::1");
  CHECK(v6.value->authority() == "[fd00::1]:6443");

  auto proxy = parse_url("http://user:p%40ss@proxy.corp:3128");
  REQUIRE(proxy.value);
  CHECK(proxy.value->user_info == "user:p@ss");
  CHECK(proxy.value->host == "proxy.corp");
}

TEST_CASE("unusable URLs say why", "[kube][url]") {
  CHECK(parse_url("api.example.com:6443").error.find("no scheme") != std::string::npos);
  CHECK(parse_url("https://:6443").error.find("no host") != std::string::npos);
  CHECK(parse_url("https://host:99999").error.find("port") != std::string::npos);
  // More digits than an unsigned long holds: refused, not thrown (found by fuzz_kubeconfig).
  CHECK(parse_url("https://host:" + std::string(40, '9')).error.find("port") != std::string::npos);
  CHECK(parse_url("https://host:00443").value->port == "00443");
  CHECK(parse_url("https://[::1:6443").error.find("']'") != std::string::npos);
}

TEST_CASE("IP literals are told from names", "[kube][url]") {
  CHECK(is_ip_literal("127.0.0.1"));
  CHECK(is_ip_literal("::1"));
  CHECK_FALSE(is_ip_literal("kubernetes.default.svc"));
  CHECK_FALSE(is_ip_literal("10.0.0.1.nip.io"));
}

TEST_CASE("query values are percent-encoded", "[kube][url]") {
  CHECK(encode_query_value("app in (a,b)") == "app%20in%20%28a%2Cb%29");
  CHECK(encode_query_value("nvidia.com/gpu.present=true") == "nvidia.com%2Fgpu.present%3Dtrue");
  CHECK(encode_query_value("Az09-_.~") == "Az09-_.~");
}

TEST_CASE("base64 round-trips and rejects garbage", "[kube][base64]") {
  for (const std::string& text :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", "user:password", std::string("\0\xff\x10", 3)}) {
    auto decoded = base64_decode(base64_encode(text));
    REQUIRE(decoded);
    CHECK(*decoded == text);
  }
  CHECK(base64_encode("user:password") == "dXNlcjpwYXNzd29yZA==");
  CHECK(base64_decode("dXNl\ncjpw\nYXNzd29yZA==").value_or("") == "user:password");  // wrapped lines
  CHECK(base64_decode("dXNlcjpwYXNzd29yZA").value_or("") == "user:password");        // padding stripped
  CHECK_FALSE(base64_decode("not base64!"));
  CHECK_FALSE(base64_decode("QQ==QQ"));
  CHECK_FALSE(base64_decode("Q"));
}
