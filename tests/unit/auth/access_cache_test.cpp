// SubjectAccessReviews: the question's key, the review's body and answer, and the authorizer
// that asks each question once while its decision is cached.
#include <catch2/catch.hpp>

#include "../kube/kube_test_support.hpp"
#include "auth/authorizer.hpp"
#include "auth/kube_reviews.hpp"
#include "auth/request_access.hpp"

using namespace sextant;
namespace net = boost::asio;

TEST_CASE("an access decision is keyed by the whole caller and the whole question", "[auth]") {
  caller alice{"alice", "u1", {"team-a"}, {}};
  caller alice_other_groups{"alice", "u1", {"team-b"}, {}};
  const access_check list_a = access_check::on_resource("list", "kueue.x-k8s.io", "workloads", "team-a");
  const access_check list_b = access_check::on_resource("list", "kueue.x-k8s.io", "workloads", "team-b");
  const access_check get_a = access_check::on_resource("get", "kueue.x-k8s.io", "workloads", "team-a");
  const access_check cluster = access_check::on_resource("list", "kueue.x-k8s.io", "workloads");
  std::set<std::string> keys{access_key(alice, list_a),  access_key(alice_other_groups, list_a),
                             access_key(alice, list_b),  access_key(alice, get_a),
                             access_key(alice, cluster), access_key(alice, access_check::on_path("list", "/metrics"))};
  CHECK(keys.size() == 6);
  // Group names cannot run into the next field.
  CHECK(access_key(caller{"a", "", {"b", "c"}, {}}, list_a) != access_key(caller{"a", "", {"b,c"}, {}}, list_a));
  CHECK(list_a.words() == "list workloads in team-a");
  CHECK(cluster.words() == "list workloads");
  CHECK(access_check::on_resource("get", "", "pods", "ml", "log").words() == "get pods/log in ml");
  CHECK(access_check::on_path("put", "/sextant/settings/problems").words() == "put /sextant/settings/problems");
}

TEST_CASE("a SubjectAccessReview's body and answers", "[auth]") {
  caller alice{"alice", "u1", {"team-a", "system:authenticated"}, {{"scope", {"x"}}}};
  json resource =
      json::parse(access_review_body(alice, access_check::on_resource("get", "", "pods", "ml", "log")))["spec"];
  CHECK(resource["user"] == "alice");
  CHECK(resource["uid"] == "u1");
  CHECK(resource["groups"].size() == 2);
  CHECK(resource["extra"]["scope"][0] == "x");
  CHECK(resource["resourceAttributes"] ==
        json({{"verb", "get"}, {"group", ""}, {"resource", "pods"}, {"subresource", "log"}, {"namespace", "ml"}}));
  json cluster = json::parse(access_review_body(alice, access_check::on_resource("list", "g", "r")))["spec"];
  CHECK_FALSE(cluster["resourceAttributes"].contains("namespace"));
  json path =
      json::parse(access_review_body(alice, access_check::on_path("put", "/sextant/settings/problems")))["spec"];
  CHECK(path["nonResourceAttributes"] == json({{"path", "/sextant/settings/problems"}, {"verb", "put"}}));
  CHECK_FALSE(path.contains("resourceAttributes"));

  CHECK(read_access_review(201, R"({"status": {"allowed": true}})", "").allowed == std::optional<bool>(true));
  CHECK(read_access_review(201, R"({"status": {"allowed": false, "reason": "no"}})", "").allowed ==
        std::optional<bool>(false));
  CHECK(read_access_review(201, R"({"status": {"allowed": true, "denied": true}})", "").allowed ==
        std::optional<bool>(false));
  CHECK(read_access_review(201, R"({"status": {}})", "").allowed == std::optional<bool>(false));
  CHECK_FALSE(read_access_review(403, "{}", "").allowed);
  CHECK_FALSE(read_access_review(0, "", "timeout").allowed);
}

TEST_CASE("the authorizer asks each question once and a request notes what it lacks", "[auth]") {
  net::io_context io;
  int reviews = 0;
  int in_flight = 0;
  int most_in_flight = 0;
  bool fail = false;
  net::steady_timer pause(io);
  authorizer decide(
      io.get_executor(),
      [&](std::string path, std::string body) -> net::awaitable<kube::http_reply> {
        CHECK(path == access_review_path);
        ++reviews;
        ++in_flight;
        most_in_flight = std::max(most_in_flight, in_flight);
        net::steady_timer wait(io, std::chrono::milliseconds(5));
        co_await wait.async_wait(kube::use_tuple);
        --in_flight;
        json spec = json::parse(body)["spec"];
        kube::http_reply reply;
        reply.status = fail ? 500 : 201;
        const bool allowed = string_or(spec, {"resourceAttributes", "namespace"}) == "team-a";
        reply.body = json({{"status", {{"allowed", allowed}}}}).dump();
        co_return reply;
      },
      std::chrono::seconds(60));
  caller alice{"alice", "", {}, {}};
  request_access access(alice, [&](const caller& who, const access_check& check) { return decide.known(who, check); });

  std::vector<access_check> questions;
  for (int i = 0; i < 40; ++i) {
    questions.push_back(access_check::on_resource("list", "", "pods", i == 0 ? "team-a" : "ns-" + std::to_string(i)));
  }
  for (const access_check& question : questions) {
    CHECK_FALSE(access.may(question));
  }
  CHECK_FALSE(access.may(questions[0]));  // asked twice, noted once
  CHECK_FALSE(access.decided());
  std::vector<access_check> pending = access.take_pending();
  CHECK(pending.size() == 40);
  CHECK(kube::testing::run_to_end(io, decide.decide(alice, pending))->error.empty());
  CHECK(reviews == 40);
  CHECK(most_in_flight > 1);  // side by side
  CHECK(most_in_flight <= 16);
  const auto asked_by = std::chrono::steady_clock::now();
  CHECK(access.may(questions[0]) == std::optional<bool>(true));
  CHECK(access.may(questions[1]) == std::optional<bool>(false));
  CHECK(access.decided());
  // What is decided from these holds until they are due to be asked again, with a quarter of
  // their minute left (access_renewal_test.cpp).
  CHECK(access.decisions_hold_until() <= asked_by + std::chrono::seconds(45));
  CHECK(access.decisions_hold_until() > asked_by + std::chrono::seconds(40));
  // Decided already: nothing asked again.
  CHECK(kube::testing::run_to_end(io, decide.decide(alice, pending))->error.empty());
  CHECK(reviews == 40);

  fail = true;
  std::string error =
      kube::testing::run_to_end(io, decide.decide(alice, {access_check::on_path("get", "/metrics")}))->error;
  CHECK_THAT(error, Catch::Contains("get /metrics") && Catch::Contains("500"));
  CHECK_FALSE(decide.known(alice, access_check::on_path("get", "/metrics")));
}

TEST_CASE("an access decision's key keeps the caller's extra values apart, whatever they hold", "[auth]") {
  const access_check list = access_check::on_resource("list", "kueue.x-k8s.io", "workloads");
  auto key = [&list](std::map<std::string, std::vector<std::string>> extra) {
    return access_key(caller{"alice", "", {"team-a"}, std::move(extra)}, list);
  };
  // An OIDC provider may put a comma, a '=' or a control byte in a value; each caller keeps its own decisions.
  std::set<std::string> keys{key({{"scopes", {"a,b"}}}),          key({{"scopes", {"a", "b"}}}),
                             key({{"scopes", {"a"}}, {"b", {}}}), key({{"scopes=a,", {}}}),
                             key({{"scopes", {"a\x1f"}}}),        key({{"scopes", {"a"}}})};
  CHECK(keys.size() == 6);
  // A user or group holding the old separator byte does not pass for the next field either.
  CHECK(access_key(caller{"a\x1f"
                          "b",
                          "",
                          {},
                          {}},
                   list) != access_key(caller{"a", "b", {}, {}}, list));
  CHECK(access_key(caller{"a",
                          "",
                          {"b\x1f"
                           "c"},
                          {}},
                   list) != access_key(caller{"a", "", {"b", "c"}, {}}, list));
}
