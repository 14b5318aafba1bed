// A caller polling a list over many namespaces holds one decision per namespace. The questions
// asked together end together, a decision still in use is asked again before it ends while the
// kept one answers, and a question on its way to the API server is not sent twice. Steady time is
// the test's own: the API server's answers take real milliseconds, the decisions' ages do not.
#include <chrono>

#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "auth/authorizer.hpp"
#include "auth/kube_reviews.hpp"
#include "auth/request_access.hpp"

using namespace sextant;
namespace net = boost::asio;
using namespace std::chrono_literals;

namespace {

// The test API server: it answers "yes" for the namespaces it is told to, one review at a time
// costing a millisecond of real time (so that reviews overlap) and `took` of the test's time.
struct review_server {
  explicit review_server(net::io_context& io_) : io(io_) {}
  authorizer::poster poster() {
    return [this](std::string, std::string body) -> net::awaitable<kube::http_reply> {
      ++reviews;
      net::steady_timer wait(io, 1ms);
      co_await wait.async_wait(kube::use_tuple);
      now += took;
      json spec = json::parse(body)["spec"];
      kube::http_reply reply;
      reply.status = down ? 500 : 201;
      const std::string namespace_ = string_or(spec, {"resourceAttributes", "namespace"});
      reply.body = json({{"status", {{"allowed", !denied.contains(namespace_)}}}}).dump();
      co_return reply;
    };
  }
  authorizer::clock clock() {
    return [this] { return now; };
  }
  net::io_context& io;
  authorizer::time now = authorizer::time{} + 1000h;
  std::chrono::milliseconds took{1};
  std::set<std::string> denied;
  bool down = false;
  int reviews = 0;
};

std::vector<access_check> namespaces(int count) {
  std::vector<access_check> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(access_check::on_resource("list", "kueue.x-k8s.io", "workloads", "ns-" + std::to_string(i)));
  }
  return out;
}

// One poll of a list's cut as the daemon makes it: every question asked of the cache, and those
// without a decision sent to the API server before the answer (the request waits for them).
struct poll_result {
  std::size_t waited_for = 0;  // questions the request had to wait for
  authorizer::time holds_until;
};

poll_result poll(net::io_context& io, authorizer& decide, const caller& who, const std::vector<access_check>& cut) {
  request_access access(who, [&](const caller& c, const access_check& check) { return decide.known(c, check); });
  for (const access_check& question : cut) {
    access.may(question);
  }
  std::vector<access_check> pending = access.take_pending();
  if (!pending.empty()) {
    REQUIRE(kube::testing::run_to_end(io, decide.decide(who, pending))->error.empty());
    poll_result result = poll(io, decide, who, cut);  // the request runs again, as app::answer does
    result.waited_for += pending.size();
    return result;
  }
  poll_result result;
  result.holds_until = access.decisions_hold_until();
  return result;
}

// Lets the background renewals run to their end (real time; the test's clock stands still).
void settle(net::io_context& io, review_server& server) {
  int before = -1;
  while (before != server.reviews) {
    before = server.reviews;
    kube::testing::run_until(
        io, [] { return false; }, 30ms);
  }
}

// One caller and the daemon's authorizer at its default 10 s, against the test API server. While
// reviews fail, the gate lets a probe through at once (no pause): the tests' time is their own.
struct one_caller {
  net::io_context io;
  review_server server{io};
  std::shared_ptr<review_recovery> recovery = std::make_shared<review_recovery>();
  authorizer decide{io.get_executor(), server.poster(), 10s, 65536, review_gate(64, 0s, 0s, recovery), server.clock()};
  const caller alice{"alice", "", {"team-a"}, {}};
};

}  // namespace

TEST_CASE_METHOD(one_caller, "a caller polling 500 namespaces waits for reviews once, not each time one decision ends",
                 "[auth]") {
  const std::vector<access_check> cut = namespaces(500);

  const authorizer::time asked = server.now;
  poll_result first = poll(io, decide, alice, cut);
  CHECK(first.waited_for == 500);
  CHECK(server.reviews == 500);
  // The 500 answers came over half a second of the test's time, yet they end together: what is
  // decided from them holds until they are due to be asked again, 7.5 s after they were asked.
  CHECK(server.now >= asked + 500ms);
  CHECK(first.holds_until == asked + 7500ms);

  // The daemon's cut memo asks again when what it holds ends; polls in between cost nothing.
  // Over 75 s of polling every 100 ms no poll waits for a review, and the reviews are one per
  // namespace per renewal (7.5 s), not one per namespace per request.
  authorizer::time holds_until = first.holds_until;
  int recomputed = 0;
  const int reviews_before = server.reviews;
  for (authorizer::time end = server.now + 75s; server.now < end; server.now += 100ms) {
    if (server.now < holds_until) {
      continue;
    }
    ++recomputed;
    poll_result again = poll(io, decide, alice, cut);
    INFO("poll " << recomputed << " at "
                 << std::chrono::duration_cast<std::chrono::milliseconds>(server.now - first.holds_until).count()
                 << " ms after the first decisions' renewal time");
    CHECK(again.waited_for == 0);
    CHECK(again.holds_until > server.now);
    holds_until = again.holds_until;
    settle(io, server);
  }
  // 75 s / 7.5 s = 10 renewals of 500; the last may still be ahead.
  CHECK(server.reviews - reviews_before >= 9 * 500);
  CHECK(server.reviews - reviews_before <= 10 * 500);
  CHECK(decide.renewals() == static_cast<std::uint64_t>(server.reviews - reviews_before));
  // Twice per renewal: once when it falls due (which starts it), once when the old decisions end.
  CHECK(recomputed <= 2 * 10);
}

TEST_CASE_METHOD(one_caller, "a decision is never used past its time: a renewal that fails leaves it to its end",
                 "[auth][faults]") {
  const std::vector<access_check> cut = namespaces(20);
  const authorizer::time asked = server.now;
  REQUIRE(poll(io, decide, alice, cut).waited_for == 20);

  // Due to be asked again: the kept decision answers meanwhile, and holds until it ends.
  server.now = asked + 8s;
  server.down = true;
  std::optional<kept_decision> kept = decide.known(alice, cut[0]);
  REQUIRE(kept);
  CHECK(kept->allowed);
  CHECK(kept->until == asked + 10s);
  for (const access_check& question : cut) {
    decide.known(alice, question);
  }
  settle(io, server);
  CHECK(decide.renewals() == 20);
  // The renewals failed: no further renewal is started by asking again...
  const int sent = server.reviews;
  for (const access_check& question : cut) {
    REQUIRE(decide.known(alice, question));
  }
  settle(io, server);
  CHECK(server.reviews == sent);
  // ...and at their end the decisions are gone: the next request asks (and, the server down, waits).
  server.now = asked + 10s;
  CHECK_FALSE(decide.known(alice, cut[0]));
  server.down = false;
  // The gate lets one probe through before the rest (review_gate); once it is answered, all go.
  CHECK(kube::testing::run_to_end(io, decide.decide(alice, {cut[0]}))->error.empty());
  CHECK(poll(io, decide, alice, cut).waited_for == 19);
}

TEST_CASE_METHOD(one_caller, "a renewal answers as the server now does", "[auth]") {
  const std::vector<access_check> cut = namespaces(3);
  const authorizer::time asked = server.now;
  poll(io, decide, alice, cut);
  REQUIRE(decide.known(alice, cut[1])->allowed);

  server.denied.insert("ns-1");  // her RoleBinding in ns-1 was deleted
  server.now = asked + 9s;
  // Still hers until the kept decision ends, 10 s after it was asked (--access-cache-seconds).
  CHECK(decide.known(alice, cut[1])->allowed);
  settle(io, server);
  std::optional<kept_decision> renewed = decide.known(alice, cut[1]);
  REQUIRE(renewed);
  CHECK_FALSE(renewed->allowed);
  CHECK(renewed->until > asked + 10s);
  CHECK(renewed->until <= server.now + 10s);
}

TEST_CASE_METHOD(one_caller, "a question on its way to the API server is sent once, however many requests need it",
                 "[auth]") {
  const std::vector<access_check> cut = namespaces(40);
  // 64 connections of one caller arrive before the first review is answered.
  int answered = 0;
  for (int request = 0; request < 64; ++request) {
    net::co_spawn(io, decide.decide(alice, cut), [&answered](const std::exception_ptr& failure, undecided outcome) {
      CHECK_FALSE(failure);
      CHECK(outcome.error.empty());
      ++answered;
    });
  }
  REQUIRE(kube::testing::run_until(io, [&] { return answered == 64; }));
  CHECK(server.reviews == 40);
  for (const access_check& question : cut) {
    CHECK(decide.known(alice, question));
  }
  // Another caller's same question is another question.
  const caller bob{"bob", "", {}, {}};
  CHECK(kube::testing::run_to_end(io, decide.decide(bob, {cut[0]}))->error.empty());
  CHECK(server.reviews == 41);
}

TEST_CASE_METHOD(one_caller, "a 'no' from a server just back is not renewed ahead: it is kept a moment only",
                 "[auth][faults]") {
  const std::vector<access_check> cut = namespaces(1);
  server.denied.insert("ns-0");
  recovery->last = server.now;  // the server answered again after an outage just now
  poll(io, decide, alice, cut);
  std::optional<kept_decision> kept = decide.known(alice, cut[0]);
  REQUIRE(kept);
  CHECK_FALSE(kept->allowed);
  CHECK(kept->until <= server.now + review_gate::settling_keep);
  server.now += 900ms;
  decide.known(alice, cut[0]);
  settle(io, server);
  CHECK(decide.renewals() == 0);
}
