// A pass judges only what changed since the last (problem_engine::follow, rule_memo): the
// problems come out as a whole pass would give them, with the rule asked about fewer objects.
#include <catch2/catch.hpp>
#include <memory>

#include "problems/problem_engine.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"
#include "unit/problems/not_ready_findings.hpp"

using namespace sextant;
using namespace std::chrono_literals;

namespace {

const kind_key node_type{"", "Node"};
const kind_key namespace_type{"", "Namespace"};

struct counted_rule {
  std::shared_ptr<int> calls = std::make_shared<int>(0);
  bool reads_namespaces = false;
  bool reads_clock = false;

  problem_rule rule() const {
    return {"nodes", node_type,
            [calls = calls, reads_namespaces = reads_namespaces, reads_clock = reads_clock](
                const cached_object& node, const view_context& context) {
              ++*calls;
              if (reads_namespaces && context.store.count(namespace_type) == 0) {
                return std::vector<finding>{};
              }
              if (reads_clock && time_point(context.now) < testing::at("2026-11-29T12:00:00Z")) {
                return std::vector<finding>{};
              }
              return testing::not_ready_findings(node);
            }};
  }
};

std::string node_yaml(const std::string& name, const std::string& ready, const std::string& since = "") {
  return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", uid: uid-" + name +
         "}\nstatus: {conditions: [{type: Ready, status: \"" + ready + "\"" +
         (since.empty() ? "" : ", lastTransitionTime: \"" + since + "\"") + "}]}\n";
}

void load_nodes(testing::fixture_cluster& cluster) {
  cluster.load_yaml(node_yaml("told", "False", "2026-11-29T11:40:00Z") + "---\n" + node_yaml("fine-1", "True") +
                    "---\n" + node_yaml("fine-2", "True"));
}

// An engine following a cluster of three Nodes, one of them not ready since 11:40.
struct followed_nodes {
  explicit followed_nodes(counted_rule rule, time_point at = testing::at("2026-11-29T12:00:00Z"))
      : cluster(at), counted(std::move(rule)), engine({{"nodes", "Nodes", true}}, {counted.rule()}) {
    engine.follow(cluster.store);
    load_nodes(cluster);
  }
  testing::fixture_cluster cluster;
  counted_rule counted;
  problem_engine engine;
};

counted_rule reading_namespaces() {
  counted_rule rule;
  rule.reads_namespaces = true;
  return rule;
}

std::vector<std::string> problem_names(const problem_engine& engine) {
  std::vector<std::string> names;
  for (const problem& p : engine.current()) {
    names.push_back(p.name);
  }
  return names;
}

}  // namespace

TEST_CASE("after a whole pass, a pass judges only the objects that changed", "[problems][incremental]") {
  followed_nodes nodes{counted_rule{}};
  auto& [cluster, counted, engine] = nodes;

  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 3);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});

  // Nothing changed: nothing is judged, and the problem stands with its time.
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 3);
  REQUIRE(engine.current().size() == 1);
  CHECK(engine.current()[0].since == testing::at("2026-11-29T11:40:00Z"));

  // One node turns not ready: only it is judged; it falls due 10 minutes after first seen.
  cluster.load_yaml(node_yaml("fine-1", "False"));
  std::optional<time_point> next = engine.evaluate(cluster.context());
  CHECK(*counted.calls == 4);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});
  REQUIRE(next.has_value());
  CHECK(*next == testing::at("2026-11-29T12:10:00Z"));

  // Time alone makes it a problem: no object is judged again for that.
  cluster.now = testing::at("2026-11-29T12:10:00Z");
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 4);
  CHECK(problem_names(engine) == std::vector<std::string>{"fine-1", "told"});

  // A deleted object's problem goes; a recovered one's too.
  cluster.store.remove(node_type, "", "told");
  cluster.load_yaml(node_yaml("fine-1", "True"));
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 5);
  CHECK(engine.current().empty());
}

TEST_CASE("a pass that judges only changes gives what a whole pass gives", "[problems][incremental]") {
  testing::fixture_cluster followed(testing::at("2026-11-29T12:00:00Z"));
  testing::fixture_cluster whole(testing::at("2026-11-29T12:00:00Z"));
  counted_rule followed_rule;
  counted_rule whole_rule;
  problem_engine incremental({{"nodes", "Nodes", true}}, {followed_rule.rule()});
  incremental.follow(followed.store);
  problem_engine reference({{"nodes", "Nodes", true}}, {whole_rule.rule()});
  for (testing::fixture_cluster* cluster : {&followed, &whole}) {
    load_nodes(*cluster);
  }
  const std::vector<std::string> writes = {node_yaml("fine-2", "False", "2026-11-29T11:00:00Z"),
                                           node_yaml("told", "True"), node_yaml("new", "False", "2026-11-29T11:30:00Z"),
                                           node_yaml("fine-2", "False", "2026-11-29T11:55:00Z")};
  incremental.evaluate(followed.context());
  reference.evaluate(whole.context());
  for (const std::string& write : writes) {
    for (testing::fixture_cluster* cluster : {&followed, &whole}) {
      cluster->load_yaml(write);
      cluster->now += 3min;
    }
    incremental.evaluate(followed.context());
    reference.evaluate(whole.context());
    CHECK(problem_names(incremental) == problem_names(reference));
    CHECK(incremental.next_due() == reference.next_due());
  }
  CHECK(problem_names(incremental) == std::vector<std::string>{"fine-2", "new"});
  CHECK(*followed_rule.calls == 3 + 4);
  CHECK(*whole_rule.calls == 3 + 3 + 3 + 4 + 4);
}

TEST_CASE("a change to a kind the rule read makes the next pass judge every object", "[problems][incremental]") {
  followed_nodes nodes(reading_namespaces());
  auto& [cluster, counted, engine] = nodes;
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 3);
  CHECK(engine.current().empty());  // no Namespace yet: the rule finds nothing

  cluster.load_yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, uid: ns1}\n");
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 6);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});

  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 6);
}

TEST_CASE("a rule that read the clock is judged whole every pass", "[problems][incremental]") {
  counted_rule reading_clock;
  reading_clock.reads_clock = true;
  followed_nodes nodes(reading_clock, testing::at("2026-11-29T11:59:00Z"));
  auto& [cluster, counted, engine] = nodes;
  engine.evaluate(cluster.context());
  CHECK(engine.current().empty());
  cluster.now = testing::at("2026-11-29T12:00:00Z");
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 6);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});
}

TEST_CASE("a category turned off and on again, or a pass abandoned, is judged whole next", "[problems][incremental]") {
  followed_nodes nodes{counted_rule{}};
  auto& [cluster, counted, engine] = nodes;
  engine.evaluate(cluster.context());
  engine.set_enabled("nodes", false);
  engine.set_enabled("nodes", true);
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 6);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});

  // Abandoned after one object: the memo no longer holds a whole judgement.
  cluster.load_yaml(node_yaml("fine-1", "False", "2026-11-29T11:00:00Z"));
  engine.begin(cluster.context());
  CHECK_FALSE(engine.step(std::chrono::steady_clock::duration::zero()));
  CHECK(*counted.calls == 7);
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 10);
  CHECK(problem_names(engine) == std::vector<std::string>{"fine-1", "told"});
}

TEST_CASE("a rule's reads are noted apart from a render's, which keeps its recorder", "[problems][incremental]") {
  followed_nodes nodes(reading_namespaces());
  auto& [cluster, counted, engine] = nodes;
  view_reads render;
  cluster.store.record_reads(&render);
  engine.evaluate(cluster.context());
  CHECK(cluster.store.recording() == &render);
  CHECK_FALSE(render.kinds.contains(namespace_type));
  cluster.store.record_reads(nullptr);
}

TEST_CASE("a change to what the cluster serves makes the next pass judge every object", "[problems][incremental]") {
  followed_nodes nodes{counted_rule{}};
  auto& [cluster, counted, engine] = nodes;
  engine.evaluate(cluster.context());
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 3);
  // A rule may read what is served (a link's version, whether a kind exists at all).
  cluster.served.clear();
  engine.evaluate(cluster.context());
  CHECK(*counted.calls == 6);
  CHECK(problem_names(engine) == std::vector<std::string>{"told"});
}
