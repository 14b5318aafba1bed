// Bearer tokens: the header, the hash a verdict is cached under, the TokenReview's body and
// answer, and the authenticator that asks it once per token per cache period.
#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "auth/authenticator.hpp"
#include "auth/bearer_token.hpp"
#include "auth/client_budget.hpp"
#include "auth/expiring_cache.hpp"
#include "auth/kube_reviews.hpp"
#include "auth/token_hash.hpp"

using namespace sextant;
namespace net = boost::asio;

TEST_CASE("a token is cached under its SHA-256, never as itself", "[auth]") {
  // FIPS 180-2's test vector.
  CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(token_hash("").size() == 64);
  CHECK(token_hash("secret-token") != token_hash("secret-token2"));
  CHECK(token_hash("secret-token").find("secret") == std::string::npos);
}

TEST_CASE("the bearer token of an Authorization header", "[auth]") {
  CHECK(bearer_token("Bearer abc.def") == std::optional<std::string_view>("abc.def"));
  CHECK(bearer_token("bearer   abc  ") == std::optional<std::string_view>("abc"));
  CHECK_FALSE(bearer_token(""));
  CHECK_FALSE(bearer_token("Bearer"));
  CHECK_FALSE(bearer_token("Bearer "));
  CHECK_FALSE(bearer_token("Basic dXNlcjpwYXNz"));
  CHECK_FALSE(bearer_token("Bearer two words"));
  CHECK_FALSE(bearer_token("Bearerabc"));
}

TEST_CASE("an expiring cache forgets at its time and keeps at most its bound", "[auth]") {
  using namespace std::chrono_literals;
  expiring_cache<int> cache(10s, 2);
  const auto t0 = std::chrono::steady_clock::time_point{} + 100s;
  cache.put("a", 1, t0);
  REQUIRE(cache.find("a", t0 + 9s) != nullptr);
  CHECK(*cache.find("a", t0 + 9s) == 1);
  CHECK(cache.find("a", t0 + 10s) == nullptr);
  CHECK(cache.size() == 0);
  cache.put("a", 1, t0);
  cache.put("b", 2, t0 + 1s);
  cache.put("c", 3, t0 + 2s);  // over the bound: the oldest goes
  CHECK(cache.size() == 2);
  CHECK(cache.find("a", t0 + 3s) == nullptr);
  CHECK(cache.find("b", t0 + 3s) != nullptr);
  cache.put("b", 4, t0 + 5s);  // put again: a new value and a new expiry
  CHECK(*cache.find("b", t0 + 14s) == 4);
}

TEST_CASE("a TokenReview's body and answers", "[auth]") {
  json body = json::parse(token_review_body("tok"));
  CHECK(body["kind"] == "TokenReview");
  CHECK(body["spec"]["token"] == "tok");

  token_verdict good = read_token_review(201, R"({"status": {"authenticated": true, "user": {
      "username": "alice", "uid": "u1", "groups": ["team-a", 7], "extra": {"scope": ["x"]}}}})",
                                         "");
  CHECK(good.answered);
  CHECK(good.authenticated);
  CHECK(good.who.user == "alice");
  CHECK(good.who.groups == std::vector<std::string>{"team-a"});
  CHECK(good.who.extra["scope"] == std::vector<std::string>{"x"});

  token_verdict bad =
      read_token_review(201, R"({"status": {"authenticated": false, "error": "invalid bearer token"}})", "");
  CHECK(bad.answered);
  CHECK_FALSE(bad.authenticated);
  CHECK(bad.message == "invalid bearer token");

  token_verdict nameless = read_token_review(201, R"({"status": {"authenticated": true, "user": {}}})", "");
  CHECK_FALSE(nameless.authenticated);

  token_verdict forbidden =
      read_token_review(403, R"({"kind": "Status", "message": "cannot create tokenreviews"})", "");
  CHECK_FALSE(forbidden.answered);
  CHECK_THAT(forbidden.message, Catch::Contains("403") && Catch::Contains("cannot create tokenreviews"));
  CHECK_FALSE(read_token_review(0, "", "connection refused").answered);
  CHECK_FALSE(read_token_review(201, "[1]", "").answered);
}

namespace {

// An authenticator whose API server knows one token, counting the reviews it is asked.
struct fake_token_server {
  int reviews = 0;
  int status = 201;
  std::vector<std::string> bodies;
  authenticator::poster poster() {
    return [this](std::string path, std::string body) -> net::awaitable<kube::http_reply> {
      ++reviews;
      CHECK(path == token_review_path);
      bodies.push_back(body);
      const bool known = json::parse(body)["spec"]["token"] == "good";
      kube::http_reply reply;
      reply.status = status;
      reply.body = known ? R"({"status": {"authenticated": true, "user": {"username": "alice", "groups": ["g"]}}})"
                         : R"({"status": {"authenticated": false}})";
      co_return reply;
    };
  }
};

}  // namespace

TEST_CASE("the authenticator asks once per token while the verdict is cached", "[auth]") {
  net::io_context io;
  fake_token_server server;
  authenticator check(server.poster(), std::chrono::seconds(60));
  auto ask = [&](const std::string& header) { return *kube::testing::run_to_end(io, check.authenticate(header)); };

  authentication none = ask("");
  CHECK(none.status == 401);
  CHECK_FALSE(none.who);
  CHECK(server.reviews == 0);  // no token, nothing to ask

  authentication first = ask("Bearer good");
  REQUIRE(first.who);
  CHECK(first.who->user == "alice");
  authentication again = ask("Bearer good");
  REQUIRE(again.who);
  CHECK(server.reviews == 1);

  authentication bad = ask("Bearer wrong");
  CHECK(bad.status == 401);
  CHECK_FALSE(bad.who);
  ask("Bearer wrong");
  CHECK(server.reviews == 2);  // a bad token's verdict is kept too
  CHECK(check.cached() == 2);

  server.status = 500;  // the API server fails: 503, and nothing kept
  authentication failed = ask("Bearer other");
  CHECK(failed.status == 503);
  CHECK(failed.retry_after >= std::chrono::seconds(1));
  CHECK(ask("Bearer other").status == 503);  // not asked again at once: review_gate_test.cpp
  CHECK(server.reviews == 3);
  CHECK(check.cached() == 2);
}

TEST_CASE("made-up tokens from one client are held to its budget before any TokenReview is sent", "[auth][limits]") {
  net::io_context io;
  fake_token_server server;
  authenticator check(server.poster(), std::chrono::seconds(60), 4096, invalid_token_budget{30, 10});
  auto ask = [&](const std::string& header, const std::string& client) {
    return *kube::testing::run_to_end(io, check.authenticate(header, client));
  };
  REQUIRE(ask("Bearer good", "10.0.0.9").who);  // a good token, reviewed and kept
  const int before = server.reviews;
  authentication last;
  for (int n = 0; n < 200; ++n) {
    last = ask("Bearer made-up-" + std::to_string(n), "10.0.0.9");
  }
  CHECK(server.reviews - before == 10);  // the burst; then nothing more is sent
  CHECK(last.status == 429);
  CHECK(last.retry_after >= std::chrono::seconds(1));
  CHECK_THAT(last.message, Catch::Contains("too many invalid bearer tokens"));
  // A token with a verdict costs nothing, so it is answered still; another client has its own budget.
  CHECK(ask("Bearer good", "10.0.0.9").who);
  CHECK(ask("Bearer made-up-x", "10.0.0.7").status == 401);
  // Good tokens never use a client's budget up, reviewed again every time (nothing kept) as they are.
  authenticator forgetful(server.poster(), std::chrono::seconds(0), 4096, invalid_token_budget{30, 10});
  const int reviewed = server.reviews;
  for (int n = 0; n < 50; ++n) {
    CHECK(kube::testing::run_to_end(io, forgetful.authenticate("Bearer good", "10.0.0.5"))->who);
  }
  CHECK(server.reviews - reviewed == 50);
}

TEST_CASE("a client's budget refills with time and the buckets are bounded", "[auth][limits]") {
  using namespace std::chrono_literals;
  client_budget budget(60, 2, 3);  // one a second, two at once, three clients
  const auto t0 = std::chrono::steady_clock::time_point{} + 100s;
  std::chrono::seconds retry{0};
  CHECK(budget.take("a", t0, retry));
  CHECK(budget.take("a", t0, retry));
  CHECK_FALSE(budget.take("a", t0, retry));
  CHECK(retry == 1s);
  CHECK(budget.take("a", t0 + 1s, retry));
  budget.give_back("a");
  CHECK(budget.take("a", t0 + 1s, retry));
  for (const char* client : {"b", "c", "d", "e"}) {
    CHECK(budget.take(client, t0, retry));
  }
  CHECK(budget.clients() == 3);
}
