// Starts the real sextantd on the demo cluster and checks its answers over real HTTP.
#include <signal.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "util/json.hpp"

using namespace sextant;
using sextant::testing::daemon_process;
using sextant::testing::http_call;

namespace {
std::vector<std::string> end_to_end_args() {
  return {"--snapshot",   (testing::source_dir() / "examples/demo-cluster").string(),
          "--now",        "2026-11-29T12:00:00Z",
          "--log-format", "json"};
}
}  // namespace

TEST_CASE("the daemon serves the demo cluster over HTTP", "[e2e]") {
  daemon_process daemon(end_to_end_args());
  auto sections = http_call(daemon.port(), "GET", "/api/v1/sections");
  REQUIRE(sections.status == 200);
  CHECK(sections.headers["content-type"] == "application/json");
  CHECK(sections.headers.contains("etag"));
  json body = json::parse(sections.body);
  CHECK(body["sections"][0]["id"] == "core");

  auto pods = json::parse(http_call(daemon.port(), "GET", "/api/v1/core/pods?namespace=research").body);
  CHECK(pods["items"].size() >= 4);
  auto pending = json::parse(http_call(daemon.port(), "GET", "/api/v1/core/pods/research/big-memory-notebook").body);
  CHECK(pending["state"]["label"] == "Pending");
  CHECK_THAT(pending["state"]["message"].get<std::string>(), Catch::StartsWith("0/5 nodes are available"));

  auto etag = sections.headers["etag"];
  CHECK(http_call(daemon.port(), "GET", "/api/v1/sections", {{"If-None-Match", etag}}).status == 304);

  auto head = http_call(daemon.port(), "HEAD", "/api/v1/sections");
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(head.headers["content-length"] == std::to_string(sections.body.size()));

  auto missing = http_call(daemon.port(), "GET", "/no/such/route");
  CHECK(missing.status == 404);
  CHECK(json::parse(missing.body)["error"]["reason"] == "NotFound");

  auto wrong_method = http_call(daemon.port(), "DELETE", "/api/v1/core/pods");
  CHECK(wrong_method.status == 405);
  CHECK(wrong_method.headers["allow"] == "GET, HEAD");

  auto too_big = http_call(daemon.port(), "PUT", "/api/v1/settings/problems", {}, std::string(70000, 'x'));
  CHECK(too_big.status == 413);
  CHECK(json::parse(too_big.body)["error"]["code"] == 413);

  auto metrics = http_call(daemon.port(), "GET", "/metrics");
  CHECK_THAT(metrics.body, Catch::Contains("# TYPE sextant_problems gauge") &&
                               Catch::Contains("sextant_cached_objects{kind=\"Pod\"}"));

  CHECK(daemon.stop(SIGTERM, std::chrono::seconds(5)) == 0);
  CHECK_THAT(daemon.log(), Catch::Contains("\"message\":\"snapshot ") && Catch::Contains("loaded "));
}

TEST_CASE("snapshot mode judges a category turned on before the PUT answers", "[e2e][problems]") {
  daemon_process daemon(end_to_end_args());
  auto before = json::parse(http_call(daemon.port(), "GET", "/api/v1/problems").body);
  CHECK(before["incomplete"] == false);
  CHECK(before["incompleteReason"].is_null());
  auto put = http_call(daemon.port(), "PUT", "/api/v1/settings/problems", {},
                       R"({"categories": {"kueue-workloads": {"enabled": true}}})");
  REQUIRE(put.status == 200);
  auto after = json::parse(http_call(daemon.port(), "GET", "/api/v1/problems").body);
  CHECK(after["incomplete"] == false);
  bool judged = false;
  for (const json& category : after["categories"]) {
    if (category["id"] == "kueue-workloads") {
      judged = category["enabled"] == true && category["evaluated"] == true && category["waitingFor"].empty();
    }
  }
  CHECK(judged);
  bool workload_problem = false;
  for (const json& problem : after["problems"]) {
    workload_problem = workload_problem || problem["category"] == "kueue-workloads";
  }
  CHECK(workload_problem);
  CHECK_THAT(http_call(daemon.port(), "GET", "/metrics").body,
             Catch::Contains("sextant_problem_category_evaluated{category=\"kueue-workloads\"} 1"));
}

TEST_CASE("keep-alive serves several requests on one connection", "[e2e]") {
  daemon_process daemon(end_to_end_args());
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), daemon.port()});
  std::string two =
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  boost::asio::write(socket, boost::asio::buffer(two));
  std::string reply;
  boost::system::error_code ec;
  char buffer[4096];
  while (true) {
    std::size_t n = socket.read_some(boost::asio::buffer(buffer), ec);
    reply.append(buffer, n);
    if (ec) {
      break;
    }
  }
  std::size_t first = reply.find("HTTP/1.1 200");
  REQUIRE(first != std::string::npos);
  CHECK(reply.find("HTTP/1.1 200", first + 1) != std::string::npos);
}

TEST_CASE("SIGTERM with an idle connection open still stops within 5 seconds", "[e2e]") {
  daemon_process daemon(end_to_end_args());
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket idle(io);
  idle.connect({boost::asio::ip::make_address("127.0.0.1"), daemon.port()});
  auto started = std::chrono::steady_clock::now();
  CHECK(daemon.stop(SIGTERM, std::chrono::seconds(5)) == 0);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("start-up errors are clear and stop the daemon", "[e2e]") {
  auto run = [](const std::string& args) { return testing::run_to_exit(args); };
  auto [bad_flag, flag_text] = run("--snapshott x");
  CHECK(bad_flag == 2);
  CHECK_THAT(flag_text, Catch::Contains("unknown flag \"--snapshott\""));
  auto [bad_now, now_text] = run("--snapshot x --now yesterday");
  CHECK(bad_now == 2);
  CHECK_THAT(now_text, Catch::Contains("--now") && Catch::Contains("RFC 3339"));
  auto [missing, missing_text] = run("--snapshot /no/such/dir --log-format text");
  CHECK(missing == 1);
  CHECK_THAT(missing_text, Catch::Contains("/no/such/dir"));
}
