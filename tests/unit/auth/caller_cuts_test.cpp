// The per-caller decisions of lib/auth/caller_cuts.hpp on their own, without a router: what a
// caller allowed some namespaces is refused, cut and hidden. The router's answers built from them
// are tested in caller_views_test.cpp.
#include "auth/caller_cuts.hpp"

#include <catch2/catch.hpp>

using namespace sextant;

namespace {

// A caller who may do anything in team-a and nothing elsewhere; questions about `unknown_ns` are
// not decided yet.
struct team_a_caller {
  std::string unknown_ns = "not-asked-yet";
  request_access access{caller{"alice", "", {"system:authenticated"}, {}},
                        [this](const caller&, const access_check& check) -> std::optional<bool> {
                          if (!unknown_ns.empty() && check.namespace_ == unknown_ns) {
                            return std::nullopt;
                          }
                          return check.namespace_ == "team-a";
                        }};
  caller_cuts cuts{access, [](const kind_key& type) { return type.kind == "Pod" ? "pods" : "resourceclaims"; }};
};

const kind_key pod_kind{"", "Pod"};
const kind_key claim_kind{"resource.k8s.io", "ResourceClaim"};

}  // namespace

TEST_CASE("a check the caller fails is a refusal in its words; one not decided is the placeholder", "[auth]") {
  team_a_caller who;
  CHECK_FALSE(who.cuts.refused(access_check::on_resource("list", "", "pods", "team-a")));
  std::optional<cut_refusal> refusal = who.cuts.refused(access_check::on_resource("list", "", "pods", "team-b"));
  REQUIRE(refusal);
  CHECK_FALSE(refusal->undecided);
  CHECK(refusal->message == "alice may not list pods in team-b");
  refusal = who.cuts.refused(access_check::on_resource("list", "", "pods", who.unknown_ns));
  REQUIRE(refusal);
  CHECK(refusal->undecided);
  CHECK_FALSE(who.access.decided());
}

TEST_CASE("a list is cut to the namespaces its caller may list, with the joins it may not read hidden", "[auth]") {
  team_a_caller who;
  who.unknown_ns.clear();
  std::vector<namespace_run> runs = {{"team-a", 0, 2, {{claim_kind, "team-a"}, {claim_kind, "team-b"}}},
                                     {"team-b", 2, 3, {{claim_kind, "team-b"}}}};
  list_decision decided = who.cuts.list_page(runs, listed_kind{pod_kind, "pods", true}, std::nullopt);
  REQUIRE_FALSE(decided.refusal);
  REQUIRE(decided.cut);
  CHECK(decided.cut->filtered);
  CHECK(decided.cut->namespaces == std::set<std::string>{"team-a"});
  REQUIRE(decided.cut->hidden);
  CHECK(decided.cut->hidden(join_span{0, 0, claim_kind, "team-b"}) == "you may not read resourceclaims in team-b");
  CHECK_FALSE(decided.cut->hidden(join_span{0, 0, claim_kind, "team-a"}));

  // One namespace asked for, which the caller may not list: the API server's 403, for that scope.
  decided = who.cuts.list_page(runs, listed_kind{pod_kind, "pods", true}, std::string("team-b"));
  REQUIRE(decided.refusal);
  CHECK(decided.refusal_of_scope);
  CHECK(decided.refusal->message == "alice may not list pods in team-b");
}

TEST_CASE("a view made of a kind its caller may not list cluster-wide is refused, naming the kind", "[auth]") {
  team_a_caller who;
  std::optional<cut_refusal> refusal = who.cuts.refused_made_of({claim_kind}, "/api/v1/dra/devices");
  REQUIRE(refusal);
  CHECK(refusal->message == "alice may not list resourceclaims, which /api/v1/dra/devices shows");
}

TEST_CASE("a caller's /metrics loses the series of objects it may not list, and their counts", "[auth]") {
  team_a_caller who;
  who.unknown_ns.clear();
  metrics_cut cut(who.cuts);
  cut.named("pods", pod_kind, "team-a", "p1");
  cut.named("pods", pod_kind, "team-b", "p2");
  const std::string text =
      "sextant_problems{category=\"pods\"} 2\n"
      "sextant_problem{category=\"pods\",kind=\"Pod\",namespace=\"team-a\",name=\"p1\"} 1\n"
      "sextant_problem{category=\"pods\",kind=\"Pod\",namespace=\"team-b\",name=\"p2\"} 1\n";
  CHECK(cut.apply(text) ==
        "sextant_problems{category=\"pods\"} 1\n"
        "sextant_problem{category=\"pods\",kind=\"Pod\",namespace=\"team-a\",name=\"p1\"} 1\n");
}
