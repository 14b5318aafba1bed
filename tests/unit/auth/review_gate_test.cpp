// The gate in front of the reviews: while the API server fails them, one probe now and then
// and every other review refused at once; the first answer opens it again.
#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "auth/authenticator.hpp"
#include "auth/authorizer.hpp"
#include "auth/review_gate.hpp"

using namespace sextant;
namespace net = boost::asio;
using namespace std::chrono_literals;

TEST_CASE("while reviews fail, one probe a pause goes out and the rest are refused at once", "[auth][faults]") {
  review_gate gate(3, 1s, 5s);
  const auto t0 = std::chrono::steady_clock::time_point{} + 100s;
  // Answered: any number, up to the bound in flight.
  CHECK_FALSE(gate.refusal(t0));
  CHECK_FALSE(gate.refusal(t0));
  CHECK_FALSE(gate.refusal(t0));
  CHECK(gate.refusal(t0) == std::optional(1s));  // a fourth would wait behind three that may hang
  gate.answered(t0);
  CHECK_FALSE(gate.failing());
  CHECK_FALSE(gate.settling(t0));  // it never failed: every verdict is kept

  // One fails: nothing more before the pause, then a single probe.
  CHECK(gate.failed(t0, std::nullopt, "no answer") == 1s);
  CHECK(gate.failing());
  CHECK(gate.last_failure() == "no answer");
  CHECK(gate.refusal(t0 + 500ms) == std::optional(1s));
  CHECK(not_sent_because(gate, "TokenReviews") == "the API server is failing TokenReviews (no answer)");
  CHECK_FALSE(gate.refusal(t0 + 1s));                 // the probe
  CHECK(gate.refusal(t0 + 1s) == std::optional(1s));  // one probe at a time
  CHECK(gate.refusal(t0 + 9s) == std::optional(1s));  // however long it takes
  // The reviews sent before the failure end too; they do not open the gate by failing.
  CHECK(gate.failed(t0 + 9s, std::nullopt, "no answer") == 1s);
  CHECK(gate.failed(t0 + 9s, std::nullopt, "no answer") == 1s);
  CHECK(gate.in_flight() == 0);

  // The server's Retry-After is the pause, capped; a longer one does not hold callers beyond it.
  CHECK_FALSE(gate.refusal(t0 + 10s));
  CHECK(gate.failed(t0 + 10s, 3s, "429") == 3s);
  CHECK(gate.refusal(t0 + 12s) == std::optional(1s));
  CHECK_FALSE(gate.refusal(t0 + 13s));
  CHECK(gate.failed(t0 + 13s, 600s, "429") == 5s);
  CHECK(gate.refusal(t0 + 14s) == std::optional(4s));
  CHECK_FALSE(gate.refusal(t0 + 18s));

  // The first answer opens it: every review goes out again. For a while its "no" may be a server
  // that has not read RBAC yet.
  gate.answered(t0 + 18s);
  CHECK_FALSE(gate.failing());
  CHECK(gate.settling(t0 + 18s));
  CHECK(gate.settling(t0 + 27s));
  CHECK_FALSE(gate.settling(t0 + 28s));
  CHECK(gate.last_failure().empty());
  CHECK_FALSE(gate.refusal(t0 + 18s));
  CHECK_FALSE(gate.refusal(t0 + 18s));
  CHECK(not_sent_because(gate, "TokenReviews") == "too many TokenReviews are waiting for the API server");
}

namespace {

// An API server that knows the token "good" and fails every review while `down`.
struct flaky_server {
  int reviews = 0;
  bool down = false;
  std::function<net::awaitable<kube::http_reply>(std::string, std::string)> poster() {
    return [this](std::string path, std::string body) -> net::awaitable<kube::http_reply> {
      ++reviews;
      kube::http_reply reply;
      if (down) {
        reply.status = 503;
        reply.retry_after = "2";
        reply.body = R"({"kind": "Status", "message": "the server is shutting down"})";
        co_return reply;
      }
      reply.status = 201;
      if (path == token_review_path) {
        const bool known = json::parse(body)["spec"]["token"] == "good";
        reply.body = known ? R"({"status": {"authenticated": true, "user": {"username": "alice"}}})"
                           : R"({"status": {"authenticated": false}})";
      } else {
        const bool allowed = json::parse(body)["spec"]["nonResourceAttributes"]["path"] == "/allowed";
        reply.body = json({{"status", {{"allowed", allowed}}}}).dump();
      }
      co_return reply;
    };
  }
};

}  // namespace

TEST_CASE("a server found back by one kind of review is settling for every kind that shares the recovery",
          "[auth][faults]") {
  // In an outage callers' TokenReviews fail; their SubjectAccessReviews are first sent once the
  // server is back, by a gate that never failed, and its "no" may still be "not yet".
  auto recovery = std::make_shared<review_recovery>();
  review_gate tokens(64, 1s, 5s, recovery);
  review_gate access(64, 1s, 5s, recovery);
  review_gate alone(64, 1s, 5s);
  const auto t0 = std::chrono::steady_clock::time_point{} + 100s;
  CHECK_FALSE(tokens.refusal(t0));
  tokens.failed(t0, std::nullopt, "no answer");
  CHECK_FALSE(access.settling(t0));  // down is not back
  CHECK_FALSE(tokens.refusal(t0 + 2s));
  tokens.answered(t0 + 2s);
  CHECK(access.settling(t0 + 3s));
  CHECK_FALSE(access.failing());  // nothing to refuse: it only keeps a "no" shorter
  CHECK_FALSE(access.settling(t0 + 12s));
  CHECK_FALSE(alone.settling(t0 + 3s));  // a gate with its own recovery did not hear of it
}

TEST_CASE("a TokenReview storm is held back while the API server fails, and nothing is kept or charged",
          "[auth][faults]") {
  net::io_context io;
  flaky_server server;
  authenticator check(server.poster(), 60s, 4096, invalid_token_budget{30, 10}, review_gate(64, 1s, 5s));
  auto ask = [&](const std::string& token, const std::string& client) {
    return *kube::testing::run_to_end(io, check.authenticate("Bearer " + token, client));
  };
  server.down = true;
  authentication first = ask("good", "10.0.0.1");
  CHECK(first.status == 503);
  CHECK(first.retry_after == 2s);  // the server's own Retry-After
  CHECK_THAT(first.message, Catch::Contains("503") && Catch::Contains("shutting down"));
  // Many callers, good tokens and made-up ones, from one address, within the 2 s asked for: no
  // review more, all 503.
  for (int n = 0; n < 100; ++n) {
    authentication meanwhile = ask(n % 2 ? "good" : "made-up-" + std::to_string(n), "10.0.0.1");
    CHECK(meanwhile.status == 503);
    CHECK(meanwhile.retry_after >= 1s);
    CHECK_THAT(meanwhile.message, Catch::Contains("failing TokenReviews"));
  }
  CHECK(server.reviews == 1);
  CHECK(check.cached() == 0);
}

TEST_CASE("after an outage the same tokens get the server's verdicts at once, and no budget was spent",
          "[auth][faults]") {
  net::io_context io;
  flaky_server server;
  // No pause: every ask probes, so the budget would be spent if failed reviews charged it.
  authenticator check(server.poster(), 60s, 4096, invalid_token_budget{30, 10}, review_gate(64, 0s, 0s));
  auto ask = [&](const std::string& token) {
    return *kube::testing::run_to_end(io, check.authenticate("Bearer " + token, "10.0.0.1"));
  };
  server.down = true;
  for (int n = 0; n < 30; ++n) {
    CHECK(ask("made-up").status == 503);
    CHECK(ask("good").status == 503);
  }
  CHECK(server.reviews == 60);
  CHECK(check.cached() == 0);
  server.down = false;
  authentication good = ask("good");
  REQUIRE(good.who);
  CHECK(good.who->user == "alice");
  CHECK(ask("made-up").status == 401);  // not 429: the outage cost the client nothing
  CHECK(check.cached() == 2);
}

TEST_CASE("permission checks during an outage: one probe, 503 with Retry-After, nothing decided", "[auth][faults]") {
  net::io_context io;
  flaky_server server;
  authorizer decide(io.get_executor(), server.poster(), 60s, 65536, review_gate(64, 60s, 60s));
  const caller alice{"alice", "", {}, {}};
  std::vector<access_check> questions;
  for (int i = 0; i < 40; ++i) {
    questions.push_back(access_check::on_path("get", "/p" + std::to_string(i)));
  }
  server.down = true;
  undecided first = *kube::testing::run_to_end(io, decide.decide(alice, questions));
  CHECK_FALSE(first.error.empty());
  CHECK(first.retry_after >= 2s);
  CHECK(server.reviews == 1);  // the first of the batch; the other fifteen were not sent
  for (int n = 0; n < 20; ++n) {
    undecided again = *kube::testing::run_to_end(io, decide.decide(alice, questions));
    CHECK_THAT(again.error, Catch::Contains("failing SubjectAccessReviews"));
    CHECK(again.retry_after >= 1s);
  }
  CHECK(server.reviews == 1);
  CHECK_FALSE(decide.known(alice, questions[0]));
}

TEST_CASE("permission checks decide as the server does once it answers again", "[auth][faults]") {
  net::io_context io;
  flaky_server server;
  authorizer decide(io.get_executor(), server.poster(), 60s, 65536, review_gate(64, 0s, 0s));
  const caller alice{"alice", "", {}, {}};
  const std::vector<access_check> questions{access_check::on_path("get", "/allowed"),
                                            access_check::on_path("get", "/denied")};
  server.down = true;
  CHECK_FALSE(kube::testing::run_to_end(io, decide.decide(alice, questions))->error.empty());
  CHECK_FALSE(decide.known(alice, questions[0]));
  CHECK_FALSE(decide.known(alice, questions[1]));
  server.down = false;
  CHECK(kube::testing::run_to_end(io, decide.decide(alice, questions))->error.empty());
  REQUIRE(decide.known(alice, questions[0]));
  CHECK(decide.known(alice, questions[0])->allowed);
  REQUIRE(decide.known(alice, questions[1]));
  CHECK_FALSE(decide.known(alice, questions[1])->allowed);
}
