// The demo cluster's DRA part shows every state, the waiting reasons and the problems.
#include <catch2/catch.hpp>

#include "problems/problem_engine.hpp"
#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

fixture_cluster& demo() {
  static fixture_cluster cluster = [] {
    fixture_cluster loaded(at("2026-11-29T12:00:00Z"));
    loaded.load_file(testing::source_dir() / "examples" / "demo-cluster" / "dra");
    testing::mark_complete(loaded);
    return loaded;
  }();
  return cluster;
}

std::string claim_label(const std::string& name) {
  return testing::state_of(demo(), dra::claim_kind, "training", name).label;
}

}  // namespace

TEST_CASE("demo: claims in every state", "[dra][demo]") {
  CHECK(claim_label("trainer-0-gpu-7m2xq") == "In use");
  CHECK(claim_label("finetune-large-gpus-k4d9s") == "Pending");
  CHECK(claim_label("infer-0-gpu-b7w2c") == "Binding failed");
  CHECK(claim_label("shared-a100") == "Allocated");
  CHECK(claim_label("eval-gpu") == "Pending");
  CHECK(claim_label("old-experiment-gpu") == "Deleting");
  json trainer = testing::view_of(demo(), dra::claim_kind, "training", "trainer-0-gpu-7m2xq");
  CHECK(trainer["allocation"]["devices"][0]["request"] == "gpu/a100");
  CHECK(trainer["allocation"]["node"] == "gpu-node-1");
  CHECK(trainer["consumers"][0]["exists"] == true);
  json old = testing::view_of(demo(), dra::claim_kind, "training", "old-experiment-gpu");
  CHECK(old["consumers"][0]["exists"] == false);
}

TEST_CASE("demo: the running, unschedulable and uncreated-claim pods", "[dra][demo]") {
  json running = testing::view_of(demo(), core::pod_kind, "training", "trainer-0");
  CHECK(running["claims"][0]["state"] == "In use");
  CHECK(running["claims"][0]["reservedForPod"] == true);
  CHECK(running["waiting"].is_null());

  json unschedulable = testing::view_of(demo(), core::pod_kind, "training", "finetune-large");
  CHECK(testing::reason_ids(unschedulable) == std::vector<std::string>{"cannot-allocate"});
  CHECK(unschedulable["waiting"]["reasons"][0]["nodes"] == 3);

  json uncreated = testing::view_of(demo(), core::pod_kind, "training", "notebook-0");
  CHECK(uncreated["claims"][0]["state"] == "Not created yet");
  CHECK(testing::reason_ids(uncreated) == std::vector<std::string>{"claim-not-created"});

  json binding = testing::view_of(demo(), core::pod_kind, "training", "infer-0");
  CHECK(binding["claims"][0]["state"] == "Binding failed");
  CHECK(testing::reason_ids(binding) == std::vector<std::string>{"binding-failed"});
}

TEST_CASE("demo: devices of both nodes, the old generation left out, holders named", "[dra][demo]") {
  computed_list list = dra::list_devices(demo().context());
  CHECK_FALSE(list.incomplete);
  CHECK(list.items.size() == 10);
  std::map<std::string, std::string> held;
  for (const json& row : list.items) {
    if (row["allocatedTo"].is_object()) {
      held[row["pool"].get<std::string>() + "/" + row["device"].get<std::string>()] = row["allocatedTo"]["name"];
    }
  }
  CHECK(held == std::map<std::string, std::string>{{"fabric-0/cgpu-0", "infer-0-gpu-b7w2c"},
                                                   {"gpu-node-1/gpu-0", "trainer-0-gpu-7m2xq"},
                                                   {"gpu-node-1/gpu-3", "old-experiment-gpu"},
                                                   {"gpu-node-2/gpu-1", "shared-a100"}});
  CHECK(testing::state_of(demo(), dra::slice_kind, "", "gpu-node-2-gpu.nvidia.com-h2j9w").label == "Outdated");
  json node = testing::view_of(demo(), core::node_kind, "", "gpu-node-2");
  CHECK(node["draDevices"].size() == 4);
}

TEST_CASE("demo: the dra problems are the two pods waiting on claims", "[dra][demo]") {
  section s = dra::make_section();
  problem_engine engine(s.categories, s.rules);
  engine.evaluate(demo().context());
  std::vector<std::string> names;
  for (const problem& p : engine.current("dra")) {
    names.push_back(p.name);
  }
  CHECK(names == std::vector<std::string>{"finetune-large", "notebook-0"});
}
