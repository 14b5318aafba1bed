#include "problems/problem_metrics.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using namespace std::chrono_literals;

namespace {

// Two findings on every Node that is not Ready: one object, so one series.
problem_rule twice_not_ready_rule() {
  return {"nodes", {"", "Node"}, [](const cached_object& node, const view_context&) {
            std::vector<finding> out;
            const packed_value* ready = find_condition(array_or_empty(node.body(), {"status", "conditions"}), "Ready");
            if (ready != nullptr && !condition_true(ready)) {
              out.push_back({"not-ready", std::nullopt, 0min, "not ready"});
              out.push_back({"no-heartbeat", std::nullopt, 0min, "no heartbeat"});
            }
            return out;
          }};
}

const char* nodes = R"(
apiVersion: v1
kind: Node
metadata: {name: "gpu-\"a\"", uid: u1}
status: {conditions: [{type: Ready, status: "False"}]}
---
apiVersion: v1
kind: Node
metadata: {name: fine, uid: u3}
status: {conditions: [{type: Ready, status: "True"}]}
)";

}  // namespace

TEST_CASE("/metrics has a count per category and one series per object with problems", "[problems][metrics]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(nodes);
  problem_engine engine({{"nodes", "Nodes", true}, {"quiet", "Quiet", true}}, {twice_not_ready_rule()});
  metrics_registry metrics;
  problem_metrics families(metrics);

  families.collect(engine, metrics);
  std::string before = metrics.render();
  CHECK(before.find("sextant_problems{category=\"nodes\"} 0\n") != std::string::npos);
  CHECK(before.find("# TYPE sextant_problem gauge\n") != std::string::npos);
  CHECK(before.find("sextant_problem{") == std::string::npos);

  engine.evaluate(cluster.context());
  families.collect(engine, metrics);
  std::string after = metrics.render();
  CHECK(after.find("sextant_problems{category=\"nodes\"} 2\n") != std::string::npos);
  CHECK(after.find("sextant_problems{category=\"quiet\"} 0\n") != std::string::npos);
  const std::string series =
      "sextant_problem{category=\"nodes\",kind=\"Node\",namespace=\"\",name=\"gpu-\\\"a\\\"\"} 1\n";
  REQUIRE(after.find(series) != std::string::npos);
  CHECK(after.find(series, after.find(series) + 1) == std::string::npos);  // two findings, one series
}

TEST_CASE("the problem series are rendered again only when the problems change", "[problems][metrics]") {
  testing::fixture_cluster cluster(testing::at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(nodes);
  problem_engine engine({{"nodes", "Nodes", true}}, {twice_not_ready_rule()});
  engine.evaluate(cluster.context());
  metrics_registry metrics;
  problem_metrics families(metrics);
  families.collect(engine, metrics);
  REQUIRE(metrics.render().find("name=\"gpu-") != std::string::npos);

  // What the collector rendered stays as long as the generation does: overwriting it shows
  // whether the next collect rendered again.
  metrics.set_rendered("sextant_problem", "");
  families.collect(engine, metrics);
  CHECK(metrics.render().find("name=\"gpu-") == std::string::npos);

  engine.set_enabled("nodes", false);  // a new generation: no problems now
  engine.evaluate(cluster.context());
  engine.set_enabled("nodes", true);
  engine.evaluate(cluster.context());
  families.collect(engine, metrics);
  CHECK(metrics.render().find("name=\"gpu-") != std::string::npos);
}
