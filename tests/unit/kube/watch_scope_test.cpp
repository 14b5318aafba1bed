// A kind watched only in the namespace another object names (the GPU Operator's DaemonSets in
// its Cluster Policy's status.namespace): what the plan asks for in every case, and what the
// store's objects name.
#include <catch2/catch.hpp>

#include "kube/api_lister_watcher.hpp"
#include "runtime/watch_plan.hpp"
#include "support/fixtures.hpp"
#include "support/scoped_watch_section.hpp"

using namespace sextant;
using namespace sextant::kube;

namespace {

const kind_key policy_kind = testing::scoped_policy_kind;
const kind_key daemonset_kind = testing::scoped_daemonset_kind;

section gpu_section() {
  return testing::scoped_watch_section();
}

served_kinds gpu_served() {
  return testing::scoped_watch_served();
}

// The DaemonSet watch of a plan whose source names `named`.
watch_spec daemonset_watch(const std::vector<section>& sections, const named_namespaces& named) {
  for (const watch_spec& spec : plan_watches(sections, gpu_served(), named)) {
    if (spec.type == daemonset_kind) {
      return spec;
    }
  }
  FAIL("no DaemonSet watch planned");
  return {};
}

named_namespaces naming(std::optional<std::set<std::string>> names) {
  return [names](const namespace_source&) { return names; };
}

}  // namespace

TEST_CASE("a namespace-sourced kind is watched where its source says", "[kube][watch-plan]") {
  const std::vector<section> sections{gpu_section()};

  SECTION("one namespace named: only that namespace") {
    watch_spec spec = daemonset_watch(sections, naming(std::set<std::string>{"gpu-operator"}));
    CHECK(spec.namespace_ == "gpu-operator");
    CHECK(spec.not_watched_because.empty());
    REQUIRE(spec.scoped_by);
    CHECK(spec.scoped_by->type == policy_kind);
  }
  SECTION("the source not read in full: held, and the list says why") {
    watch_spec spec = daemonset_watch(sections, naming(std::nullopt));
    CHECK(spec.not_watched_because ==
          "not watched yet: the Cluster Policies that name its namespace are not read in full");
  }
  SECTION("no object names one: held") {
    watch_spec spec = daemonset_watch(sections, naming(std::set<std::string>{}));
    CHECK(spec.not_watched_because == "not watched: none of the Cluster Policies names its namespace yet");
  }
  SECTION("two named: one watch cannot cover both, so every namespace") {
    watch_spec spec = daemonset_watch(sections, naming(std::set<std::string>{"a", "b"}));
    CHECK(spec.namespace_.empty());
    CHECK(spec.not_watched_because.empty());
  }
  SECTION("snapshot mode plans with no source: every namespace") {
    watch_spec spec = daemonset_watch(sections, {});
    CHECK(spec.namespace_.empty());
    CHECK(spec.not_watched_because.empty());
  }
  SECTION("another section reading the kind everywhere widens the watch") {
    section other;
    other.id = "other";
    other.group = "apps";
    other.always_listed = true;
    other.resources.push_back(kind_resource("daemonsets", "DaemonSets", daemonset_kind, scope::namespaced));
    watch_spec spec = daemonset_watch({gpu_section(), other}, naming(std::set<std::string>{"gpu-operator"}));
    CHECK(spec.namespace_.empty());
    CHECK_FALSE(spec.scoped_by);
  }
  SECTION("a namespace change is another watch") {
    watch_spec a = daemonset_watch(sections, naming(std::set<std::string>{"a"}));
    watch_spec b = daemonset_watch(sections, naming(std::set<std::string>{"b"}));
    CHECK_FALSE(a.same_watch(b));
    CHECK(a.same_watch(daemonset_watch(sections, naming(std::set<std::string>{"a"}))));
  }
}

TEST_CASE("what the store's objects name as namespaces", "[kube][watch-plan]") {
  sextant::testing::fixture_cluster cluster;
  const namespace_source source{policy_kind, {"status", "namespace"}};
  // Not read yet: not known.
  CHECK_FALSE(namespaces_named(cluster.store, source).has_value());

  cluster.load_yaml(R"(
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: cluster-policy}
status: {state: ready, namespace: gpu-operator}
---
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: duplicate}
status: {state: ""}
---
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: odd}
status: {namespace: "../../api/v1/secrets?x="}
---
apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: number}
status: {namespace: 7}
)");
  cluster.store.set_completeness(policy_kind, {list_completeness::state::complete, ""});
  // The duplicate names none; a name that is no namespace name cannot steer the watch's path.
  CHECK(namespaces_named(cluster.store, source) == std::set<std::string>{"gpu-operator"});

  cluster.store.set_completeness(policy_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
  CHECK_FALSE(namespaces_named(cluster.store, source).has_value());
}

TEST_CASE("a namespaced watch lists and watches that namespace only", "[kube][watch-plan]") {
  resource_target target{daemonset_kind, "v1", "daemonsets", "", "gpu-operator"};
  CHECK(target.collection_path() == "/apis/apps/v1/namespaces/gpu-operator/daemonsets");
  CHECK(list_target(target, {"", "", 500}) == "/apis/apps/v1/namespaces/gpu-operator/daemonsets?limit=500");
  resource_target pods{{"", "Pod"}, "v1", "pods", "", "team-a"};
  CHECK(pods.collection_path() == "/api/v1/namespaces/team-a/pods");
}
