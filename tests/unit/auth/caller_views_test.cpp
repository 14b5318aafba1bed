// One caller's cut of the demo cluster's answers: lists keep the namespaces the caller may list,
// details need get, joined objects it may not read are hidden, problems and /metrics drop what it
// may not list, and the settings PUT needs its own permission. The views render once for all.
#include <catch2/catch.hpp>

#include "api/view_cache.hpp"
#include "auth/cut_memo.hpp"
#include "support/demo_daemon.hpp"

using namespace sextant;

namespace {

// Decides as an RBAC policy would: `allowed` says yes or no to each question, and counts them.
struct policy_daemon {
  using rule = std::function<bool(const access_check&)>;

  explicit policy_daemon(rule allowed) : allowed_(std::move(allowed)) { demo.state.per_caller_views = true; }
  // Another caller of `shared`'s daemon: what one caller's answers leave in its caches is what the
  // other's find there.
  policy_daemon(rule allowed, std::string user, policy_daemon& shared)
      : demo_owned(shared.demo_owned),
        demo(*demo_owned),
        memo(shared.memo),
        user_(std::move(user)),
        allowed_(std::move(allowed)) {}

  // The request run as app::answer runs it: again after each round of questions is decided.
  api_response ask(const std::string& method, const std::string& target, const std::string& body = {}) {
    request_access access(
        caller{user_, "", {"system:authenticated"}, {}},
        [this](const caller& who, const access_check& check) -> std::optional<bool> {
          ++lookups;
          if (!check.namespace_.empty()) {
            ++namespaced_lookups;
          }
          auto it = decided_.find(access_key(who, check));
          return it == decided_.end() ? std::nullopt : std::optional<bool>(it->second);
        },
        memo.get());
    for (int round = 0; round < 5; ++round) {
      api_router router(demo.state, &access);
      api_response response = router.handle({method, target, "", body});
      if (access.decided()) {
        return response;
      }
      for (const access_check& check : access.take_pending()) {
        ++questions;
        decided_[access_key(access.who(), check)] = allowed_(check);
      }
    }
    FAIL("the request needed more than five rounds of questions");
    return {};
  }
  std::pair<int, json> get(const std::string& target) {
    api_response response = ask("GET", target);
    return {response.status, json::parse(response.body)};
  }

  std::shared_ptr<testing::demo_daemon> demo_owned = std::make_shared<testing::demo_daemon>(true);
  testing::demo_daemon& demo = *demo_owned;
  // The app's memo of decided cuts, shared by the callers of one daemon; none unless set.
  std::shared_ptr<cut_memo> memo;
  int questions = 0;           // asked of the policy (SubjectAccessReviews)
  int lookups = 0;             // looked up in the decisions
  int namespaced_lookups = 0;  // of them, about one namespace: what a cut asks per namespace or joined scope

 private:
  std::string user_ = "alice";
  rule allowed_;
  std::map<std::string, bool> decided_;
};

// Alice reads Kueue in team-a, and the cluster's queues; nothing of team-b.
bool alice_may(const access_check& check) {
  if (check.non_resource()) {
    return check.path == "/sextant/metrics" && check.verb == "get";
  }
  if (check.group == "kueue.x-k8s.io" && (check.resource == "clusterqueues" || check.resource == "resourceflavors")) {
    return true;
  }
  return check.group == "kueue.x-k8s.io" && check.namespace_ == "team-a";
}

std::set<std::string> namespaces_of(const json& items) {
  std::set<std::string> out;
  for (const json& item : items) {
    out.insert(string_or(item, {"namespace"}));
  }
  return out;
}

}  // namespace

TEST_CASE("a list shows only the namespaces the caller may list, and says it is filtered", "[auth]") {
  testing::demo_daemon everyone(true);
  auto [all_status, all] = everyone.get("/api/v1/kueue/workloads");
  REQUIRE(all_status == 200);
  REQUIRE(namespaces_of(all["items"]) == std::set<std::string>{"team-a", "team-b"});
  CHECK_FALSE(all.contains("filtered"));

  policy_daemon alice(alice_may);
  auto [status, mine] = alice.get("/api/v1/kueue/workloads");
  REQUIRE(status == 200);
  CHECK(namespaces_of(mine["items"]) == std::set<std::string>{"team-a"});
  CHECK(mine["filtered"] == true);
  CHECK(mine.dump().find("team-b") == std::string::npos);

  // Asked for team-b alone: the API server's answer, 403.
  auto [forbidden, refusal] = alice.get("/api/v1/kueue/workloads?namespace=team-b");
  CHECK(forbidden == 403);
  CHECK(refusal["error"]["reason"] == "Forbidden");
  CHECK(alice.get("/api/v1/kueue/workloads?namespace=team-a").first == 200);

  // A caller who may list everywhere gets the very page everyone gets, unfiltered.
  policy_daemon admin([](const access_check&) { return true; });
  auto [admin_status, whole] = admin.get("/api/v1/kueue/workloads");
  CHECK(admin_status == 200);
  CHECK(whole == all);
}

TEST_CASE("a caller's cut of a list is kept, and served to every caller with the same rights", "[auth]") {
  policy_daemon alice(alice_may);
  auto [status, first] = alice.get("/api/v1/kueue/workloads");
  REQUIRE(status == 200);
  REQUIRE(first["filtered"] == true);
  const view_cache& views = *alice.demo.state.views;
  CHECK(views.answers(cache_tier::cuts) == 1);

  // Asked again, or by another caller who may read just as much: the kept cut, the same ETag.
  const std::uint64_t hits = views.hits();
  const std::string etag = alice.ask("GET", "/api/v1/kueue/workloads").etag;
  policy_daemon carol(alice_may, "carol", alice);
  api_response carols = carol.ask("GET", "/api/v1/kueue/workloads");
  CHECK(json::parse(carols.body) == first);
  CHECK(carols.etag == etag);
  CHECK(views.hits() == hits + 2);
  CHECK(views.answers(cache_tier::cuts) == 1);

  // A caller who may read other namespaces gets a cut of her own, never alice's.
  policy_daemon bob(
      [](const access_check& check) {
        return check.group == "kueue.x-k8s.io" && (check.namespace_ == "team-b" || check.resource == "clusterqueues");
      },
      "bob", alice);
  api_response bobs = bob.ask("GET", "/api/v1/kueue/workloads");
  REQUIRE(bobs.status == 200);
  CHECK(namespaces_of(json::parse(bobs.body)["items"]) == std::set<std::string>{"team-b"});
  CHECK(bobs.etag != etag);
  CHECK(views.answers(cache_tier::cuts) == 2);
  // The whole list, asked by a caller who may read everything, is not a cut.
  policy_daemon admin([](const access_check&) { return true; }, "admin", alice);
  CHECK(namespaces_of(admin.get("/api/v1/kueue/workloads").second["items"]) ==
        std::set<std::string>{"team-a", "team-b"});
  CHECK(views.answers(cache_tier::cuts) == 2);
}

TEST_CASE("details need get, and joined objects the caller may not read are only said to exist", "[auth]") {
  policy_daemon alice(alice_may);
  testing::demo_daemon everyone;
  auto [all_status, team_b] = everyone.get("/api/v1/kueue/workloads");
  std::string team_b_workload;
  for (const json& item : team_b["items"]) {
    if (item["namespace"] == "team-b") {
      team_b_workload = item["name"];
    }
  }
  REQUIRE_FALSE(team_b_workload.empty());
  auto [forbidden, refusal] = alice.get("/api/v1/kueue/workloads/team-b/" + team_b_workload);
  CHECK(forbidden == 403);
  CHECK_THAT(refusal["error"]["message"].get<std::string>(), Catch::Contains("get workloads in team-b"));

  // gpu-shared is fed by team-b's Local Queue: alice sees that one exists, not which.
  auto [whole_status, whole] = everyone.get("/api/v1/kueue/clusterqueues/gpu-shared");
  REQUIRE(whole_status == 200);
  REQUIRE_FALSE(whole["localQueues"].empty());
  auto [status, cut] = alice.get("/api/v1/kueue/clusterqueues/gpu-shared");
  REQUIRE(status == 200);
  REQUIRE(cut["localQueues"].size() == whole["localQueues"].size());
  for (const json& entry : cut["localQueues"]) {
    CHECK(entry == json({{"hidden", "you may not read localqueues in team-b"}}));
  }
  CHECK(cut["name"] == "gpu-shared");
  // Its cohort is a Cohort alice may not get: the link is hidden. Its name stays, as in the
  // list of Cluster Queues she may read (details = summary + blocks).
  CHECK(cut["cohortLink"] == json({{"hidden", "you may not read cohorts"}}));
  CHECK(cut["cohort"] == whole["cohort"]);
  // team-b's Local Queue (also named research) is said to be there, never named.
  CHECK(whole["localQueues"].dump().find("\"research\"") != std::string::npos);
  CHECK(cut["localQueues"].dump().find("\"research\"") == std::string::npos);
  // gpu-a100's waiting Workloads are all team-a's: shown as they are.
  CHECK(alice.get("/api/v1/kueue/clusterqueues/gpu-a100").second["waiting"] ==
        everyone.get("/api/v1/kueue/clusterqueues/gpu-a100").second["waiting"]);

  // Rendered once: alice's cut and everyone's answer came from one rendering per view.
  const std::uint64_t renders = alice.demo.state.views->answer_renders();
  alice.get("/api/v1/kueue/clusterqueues/gpu-shared");
  CHECK(alice.demo.state.views->answer_renders() == renders);
}

TEST_CASE("problems and metrics leave out what the caller may not list", "[auth]") {
  testing::demo_daemon everyone(true);
  auto [all_status, all] = everyone.get("/api/v1/problems");
  REQUIRE(all_status == 200);
  bool team_b_problem = false;
  for (const json& p : all["problems"]) {
    team_b_problem = team_b_problem || p["namespace"] == "team-b";
  }
  REQUIRE(team_b_problem);

  policy_daemon alice(alice_may);
  auto [status, mine] = alice.get("/api/v1/problems");
  REQUIRE(status == 200);
  CHECK(mine["filtered"] == true);
  for (const json& p : mine["problems"]) {
    const std::string group = string_or(p, {"apiVersion"}).substr(0, string_or(p, {"apiVersion"}).find('/'));
    CHECK((p["namespace"].is_null() || p["namespace"] == "team-a"));
    CHECK(group == "kueue.x-k8s.io");
  }
  CHECK(mine.dump().find("team-b") == std::string::npos);

  // The cut is kept: asked again, or by a caller who may list as much, it comes from the cache;
  // a caller who may list everything gets every problem, and is told nothing was filtered.
  const view_cache& views = *alice.demo.state.views;
  const std::size_t cuts = views.answers(cache_tier::cuts);
  const std::uint64_t hits = views.hits();
  CHECK(alice.get("/api/v1/problems").second == mine);
  policy_daemon carol(alice_may, "carol", alice);
  CHECK(carol.get("/api/v1/problems").second == mine);
  CHECK(views.hits() == hits + 2);
  policy_daemon admin([](const access_check&) { return true; }, "admin", alice);
  auto [admin_status, whole] = admin.get("/api/v1/problems");
  CHECK(whole["filtered"] == false);
  CHECK(whole["problems"] == all["problems"]);
  CHECK(views.answers(cache_tier::cuts) == cuts + 1);

  // The app's collector writes one series per current problem; here, by hand.
  for (const problem& p : alice.demo.state.problems.current()) {
    alice.demo.state.metrics.set(
        "sextant_problem",
        {{"category", p.category}, {"kind", p.type.kind}, {"namespace", p.namespace_}, {"name", p.name}}, 1);
  }
  api_response metrics = alice.ask("GET", "/metrics");
  REQUIRE(metrics.status == 200);
  CHECK(metrics.body.find("namespace=\"team-b\"") == std::string::npos);
  CHECK(alice.demo.state.metrics.render().find("namespace=\"team-b\"") != std::string::npos);

  policy_daemon stranger([](const access_check&) { return false; });
  CHECK(stranger.ask("GET", "/metrics").status == 403);
}

TEST_CASE("/metrics needs get on /sextant/metrics, not the /metrics that also opens the API server's", "[auth]") {
  // A Prometheus whose ClusterRole grants `get /metrics` (kubelets, the API server) reads no
  // sextantd metrics by that alone: the daemon's own URL is asked for.
  policy_daemon scraper([](const access_check& check) { return check.non_resource() && check.path == "/metrics"; });
  CHECK(scraper.ask("GET", "/metrics").status == 403);
  policy_daemon own([](const access_check& check) { return check.non_resource() && check.path == "/sextant/metrics"; });
  CHECK(own.ask("GET", "/metrics").status == 200);
  // --metrics-permission-path /metrics: for those who choose the wider grant.
  scraper.demo.state.metrics_permission_path = "/metrics";
  CHECK(scraper.ask("GET", "/metrics").status == 200);
}

TEST_CASE("changing problem settings needs put on /sextant/settings/problems", "[auth]") {
  const std::string body = R"({"categories": {"kueue-workloads": {"enabled": true}}})";
  policy_daemon alice(alice_may);
  api_response refused = alice.ask("PUT", "/api/v1/settings/problems", body);
  CHECK(refused.status == 403);
  CHECK_THAT(refused.body, Catch::Contains("put /sextant/settings/problems"));
  CHECK(alice.ask("GET", "/api/v1/settings/problems").status == 200);

  policy_daemon operator_([](const access_check& check) {
    return check.non_resource() && check.path == "/sextant/settings/problems" && check.verb == "put";
  });
  CHECK(operator_.ask("PUT", "/api/v1/settings/problems", body).status == 200);
}

TEST_CASE("a section route needs the permission it declares", "[auth]") {
  testing::demo_daemon everyone;
  auto [all_status, all] = everyone.get("/api/v1/kueue/queue/jobs/team-a/train-llm");
  policy_daemon alice(alice_may);  // Kueue in team-a, but no batch jobs
  auto [status, refusal] = alice.get("/api/v1/kueue/queue/jobs/team-a/train-llm");
  CHECK(status == 403);
  CHECK_THAT(refusal["error"]["message"].get<std::string>(), Catch::Contains("get jobs in team-a"));
  policy_daemon reader(
      [](const access_check& check) { return check.resource == "jobs" && check.namespace_ == "team-a"; });
  CHECK(reader.get("/api/v1/kueue/queue/jobs/team-a/train-llm").first == all_status);
}

TEST_CASE("a caller's repeated request is cut from its memo, with the bytes a fresh cut gives", "[auth][cut_memo]") {
  policy_daemon alice(alice_may);
  alice.memo = std::make_shared<cut_memo>(std::chrono::minutes(5), 64);
  policy_daemon bob(
      [](const access_check& check) {
        return check.group == "kueue.x-k8s.io" && (check.namespace_ == "team-b" || check.resource == "clusterqueues");
      },
      "bob", alice);
  for (const std::string target : {"/api/v1/kueue/workloads", "/api/v1/kueue/workloads?limit=1",
                                   "/api/v1/kueue/clusterqueues/gpu-shared", "/api/v1/problems"}) {
    INFO(target);
    api_response first = alice.ask("GET", target);
    REQUIRE(first.status == 200);
    REQUIRE(alice.namespaced_lookups > 0);  // her cut asked about namespaces
    // Asked again: her cut comes from the memo, not one question per namespace or joined scope.
    const int namespaced = alice.namespaced_lookups;
    api_response again = alice.ask("GET", target);
    CHECK(alice.namespaced_lookups == namespaced);
    CHECK(again.body == first.body);
    CHECK(again.etag == first.etag);
    // The same bytes as a cut decided afresh, without a memo.
    policy_daemon fresh(alice_may, "alice", alice);
    fresh.memo.reset();
    api_response decided = fresh.ask("GET", target);
    CHECK(decided.body == first.body);
    CHECK(decided.etag == first.etag);
    // Another caller with other rights, on the same memo: a cut of his own, never hers.
    api_response bobs = bob.ask("GET", target);
    REQUIRE(bobs.status == 200);
    CHECK(bobs.body != first.body);
    CHECK(alice.ask("GET", target).body == first.body);
  }
}
