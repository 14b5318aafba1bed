// What the live source is told of the sections (runtime/watch_plan.hpp's watch_planner_for):
// the same plan as plan_watches, the kinds whose objects name a namespace, every kind a section
// declares, and each problem category's default. kube/ sees nothing else of them.
#include <catch2/catch.hpp>

#include "runtime/watch_plan.hpp"
#include "support/scoped_watch_section.hpp"

using namespace sextant;

namespace {

const kind_key policy_kind = testing::scoped_policy_kind;
const kind_key daemonset_kind = testing::scoped_daemonset_kind;

// The scoped section with a computed page and two categories beside its kinds.
section gpu_section() {
  section gpu = testing::scoped_watch_section();
  resource_def page;
  page.id = "gpunodes";
  gpu.resources.push_back(page);  // a computed page: no kind of its own
  gpu.categories.push_back({"gpu-operator", "GPU Operator", true});
  gpu.categories.push_back({"gpu-noisy", "Noisy", false});
  return gpu;
}

}  // namespace

TEST_CASE("the live source's planner carries the sections' plan and what it needs beside it", "[runtime][watch]") {
  kube::watch_planner planner = watch_planner_for({gpu_section()});
  CHECK(planner.namespace_namers == std::set<kind_key>{policy_kind});
  CHECK(planner.resource_kinds == std::vector<kind_key>{policy_kind, daemonset_kind});
  CHECK(planner.category_defaults == std::map<std::string, bool>{{"gpu-operator", true}, {"gpu-noisy", false}});

  served_kinds served = testing::scoped_watch_served();
  const kube::named_namespaces named = [](const namespace_source&) {
    return std::optional<std::set<std::string>>(std::set<std::string>{"gpu-operator"});
  };
  std::vector<kube::watch_spec> planned = planner.plan(served, named);
  std::vector<kube::watch_spec> direct = plan_watches({gpu_section()}, served, named);
  REQUIRE(planned.size() == 2);
  REQUIRE(direct.size() == planned.size());
  for (std::size_t i = 0; i < planned.size(); ++i) {
    CHECK(planned[i].same_watch(direct[i]));
  }
  CHECK(planned[1].namespace_ == "gpu-operator");
}
