#include "problems/problem_engine.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"
#include "support/section_views.hpp"
#include "unit/problems/not_ready_findings.hpp"

using namespace sextant;
using namespace std::chrono_literals;

namespace {

// A rule over Nodes: "not ready" (not_ready_findings.hpp).
problem_rule not_ready_rule() {
  return {"nodes", {"", "Node"}, [](const cached_object& node, const view_context&) {
            return testing::not_ready_findings(node);
          }};
}

const char* not_ready_nodes = R"(
apiVersion: v1
kind: Node
metadata: {name: told, uid: u1}
status: {conditions: [{type: Ready, status: "False", lastTransitionTime: "2026-11-29T11:55:00Z"}]}
---
apiVersion: v1
kind: Node
metadata: {name: untold, uid: u2}
status: {conditions: [{type: Ready, status: "False"}]}
---
apiVersion: v1
kind: Node
metadata: {name: fine, uid: u3}
status: {conditions: [{type: Ready, status: "True"}]}
)";

}  // namespace

TEST_CASE("thresholds apply against the clock, with since from the object", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(not_ready_nodes);
  problem_engine engine({{"nodes", "Nodes", true}}, {not_ready_rule()});

  auto next = engine.evaluate(cluster.context());
  CHECK(engine.current().empty());
  REQUIRE(next.has_value());
  CHECK(*next == testing::at("2026-11-29T12:05:00Z"));  // 11:55 + 10 min

  cluster.now = testing::at("2026-11-29T12:05:00Z");
  next = engine.evaluate(cluster.context());
  auto current = engine.current();
  REQUIRE(current.size() == 1);
  CHECK(current[0].name == "told");
  CHECK(current[0].since == testing::at("2026-11-29T11:55:00Z"));
  // The other was first seen at 12:00, so it falls due at 12:10.
  REQUIRE(next.has_value());
  CHECK(*next == testing::at("2026-11-29T12:10:00Z"));

  cluster.now = testing::at("2026-11-29T12:10:00Z");
  engine.evaluate(cluster.context());
  CHECK(engine.current().size() == 2);
  // Two problems, one scope (cluster-scoped Nodes): asked about once.
  CHECK(engine.scopes() == std::set<std::pair<kind_key, std::string>>{{{"", "Node"}, ""}});
  CHECK(engine.scopes("nodes").size() == 1);
  CHECK(engine.scopes("pods").empty());
  CHECK(engine.for_object({"", "Node"}, "", "untold").size() == 1);
  CHECK(engine.for_object({"", "Node"}, "", "fine").empty());
}

TEST_CASE("a finding that clears restarts its clock", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(not_ready_nodes);
  problem_engine engine({{"nodes", "Nodes", true}}, {not_ready_rule()});
  engine.evaluate(cluster.context());
  cluster.load_yaml(
      "apiVersion: v1\nkind: Node\nmetadata: {name: untold, uid: u2}\nstatus: {conditions: [{type: Ready, status: "
      "\"True\"}]}\n");
  cluster.now = testing::at("2026-11-29T12:06:00Z");
  engine.evaluate(cluster.context());
  cluster.load_yaml(
      "apiVersion: v1\nkind: Node\nmetadata: {name: untold, uid: u2}\nstatus: {conditions: [{type: Ready, status: "
      "\"False\"}]}\n");
  cluster.now = testing::at("2026-11-29T12:12:00Z");
  engine.evaluate(cluster.context());
  // First seen again at 12:12, not 12:00: not a problem yet.
  CHECK(engine.for_object({"", "Node"}, "", "untold").empty());
}

TEST_CASE("a category that is off is not evaluated and holds nothing", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T13:00:00Z"));
  cluster.load_yaml(not_ready_nodes);
  problem_engine engine({{"nodes", "Nodes", false}}, {not_ready_rule()});
  CHECK_FALSE(engine.enabled("nodes"));
  CHECK_FALSE(engine.evaluate(cluster.context()).has_value());
  CHECK(engine.current().empty());
  engine.set_enabled("nodes", true);
  engine.evaluate(cluster.context());
  CHECK(engine.current().size() == 1);  // "told" has held for an hour
  engine.set_enabled("nodes", false);
  CHECK(engine.current().empty());
}

TEST_CASE("a rule that throws judges nothing and the others still run", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T13:00:00Z"));
  cluster.load_yaml(not_ready_nodes);
  problem_rule throws{"nodes", {"", "Node"}, [](const cached_object&, const view_context&) -> std::vector<finding> {
                        throw std::runtime_error("boom");
                      }};
  problem_engine engine({{"nodes", "Nodes", true}}, {throws, not_ready_rule()});
  engine.evaluate(cluster.context());
  CHECK(engine.current().size() == 1);
}

TEST_CASE("a rule with no object of its kind to judge waits for nothing it reads beside", "[problems]") {
  // The GPU Operator's component rule judges Cluster Policies and reads DaemonSets; on a cluster
  // without the operator there is no policy, and DaemonSets are not even watched.
  testing::fixture_cluster cluster(testing::at("2026-11-29T13:00:00Z"));
  const kind_key policy{"nvidia.com", "ClusterPolicy"};
  const kind_key daemonset{"apps", "DaemonSet"};
  problem_rule rule{
      "gpu", policy, [](const cached_object&, const view_context&) { return std::vector<finding>{}; }, {daemonset}};
  problem_engine engine({{"gpu", "GPU", true}}, {rule});
  cluster.store.set_completeness(daemonset, {list_completeness::state::not_synced, "not watched"});

  engine.evaluate(cluster.context());
  CHECK_FALSE(engine.status("gpu").evaluated);  // the policies are not read yet either
  CHECK(engine.status("gpu").waiting_for.size() == 2);

  cluster.store.set_completeness(policy, {list_completeness::state::complete, ""});
  engine.evaluate(cluster.context());
  CHECK(engine.status("gpu").evaluated);

  // With a policy to judge, its DaemonSets matter again.
  cluster.load_yaml("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata: {name: p, uid: p1}\n");
  cluster.store.set_completeness(policy, {list_completeness::state::complete, ""});
  engine.evaluate(cluster.context());
  CHECK_FALSE(engine.status("gpu").evaluated);
  CHECK(engine.status("gpu").waiting_for == std::vector<kind_key>{daemonset});
}

TEST_CASE("an evaluation a slice at a time answers the last finished pass until it ends", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:10:00Z"));
  cluster.load_yaml(not_ready_nodes);
  testing::mark_complete(cluster);
  problem_engine engine({{"nodes", "Nodes", true}}, {not_ready_rule()});
  const std::uint64_t before = engine.generation();

  engine.begin(cluster.context());
  // A budget of nothing judges one object a step: three nodes, three unfinished steps.
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(engine.step(std::chrono::steady_clock::duration::zero()));
    CHECK(engine.evaluating());
    // Meanwhile nothing is told as known: no problems, and the category not judged yet.
    CHECK(engine.current().empty());
    CHECK_FALSE(engine.status("nodes").evaluated);
    CHECK(engine.generation() == before);
  }
  // The fourth step finishes the pass, and its answers take effect at once.
  engine.step(std::chrono::steady_clock::duration::zero());
  // "told" is due since 12:05; "untold" was first seen by this pass, so it is due at 12:20.
  CHECK(engine.current().size() == 1);
  CHECK(engine.status("nodes").evaluated);
  const std::uint64_t first = engine.generation();
  CHECK(first != before);
  while (engine.evaluating()) {
    engine.step(std::chrono::steady_clock::duration::zero());
  }

  // A second pass that finds both: the steps after it took effect free what it replaced (the
  // first pass's problem and findings) and change no answer.
  cluster.now = testing::at("2026-11-29T12:20:00Z");
  engine.begin(cluster.context());
  int steps = 0;
  while (engine.current().size() == 1) {
    engine.step(std::chrono::steady_clock::duration::zero());
    REQUIRE(++steps < 10);
  }
  CHECK(engine.current().size() == 2);
  CHECK(engine.evaluating());  // the first pass's problem and findings are not freed yet
  const std::uint64_t second = engine.generation();
  CHECK(second != first);
  while (!engine.step(std::chrono::steady_clock::duration::zero())) {
    CHECK(engine.current().size() == 2);
    CHECK(engine.generation() == second);
    REQUIRE(++steps < 20);
  }
  CHECK_FALSE(engine.evaluating());
  CHECK(engine.current().size() == 2);
}

TEST_CASE("a category turned off during a sliced pass keeps nothing of it", "[problems]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:10:00Z"));
  cluster.load_yaml(not_ready_nodes);
  testing::mark_complete(cluster);
  problem_engine engine({{"nodes", "Nodes", true}}, {not_ready_rule()});
  engine.begin(cluster.context());
  CHECK_FALSE(engine.step(std::chrono::steady_clock::duration::zero()));
  engine.set_enabled("nodes", false);
  while (!engine.step(std::chrono::steady_clock::duration::zero())) {
  }
  CHECK(engine.current().empty());
  CHECK(engine.status("nodes").reason == "turned off");

  // Off when a pass began and turned on during it, it waits for the next pass rather than being
  // half judged.
  engine.begin(cluster.context());
  engine.set_enabled("nodes", true);
  while (!engine.step(std::chrono::steady_clock::duration::zero())) {
  }
  CHECK(engine.current().empty());
  CHECK(engine.status("nodes").reason == "not evaluated yet");
  engine.evaluate(cluster.context());
  CHECK(engine.current().size() == 1);
  CHECK(engine.status("nodes").evaluated);
}
