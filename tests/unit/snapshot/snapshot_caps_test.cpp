// A snapshot with more objects of a capped kind than a live list would read is cut the same way:
// the first objects by namespace and name, and the list says it is incomplete in the same words.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "app/daemon_state.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

std::string slices(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "slice-%03d", i);
    text += std::string("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: ") + name +
            ", uid: u" + std::to_string(i) +
            "}\nspec: {driver: gpu.example.com, nodeName: node-1, pool: {name: node-1, generation: 1, "
            "resourceSliceCount: 1}, devices: []}\n";
  }
  return text;
}

struct loaded_state {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections(), clock};

  explicit loaded_state(const std::string& text) {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("cluster.yaml", text, false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }
};

const kind_key slice_kind{"resource.k8s.io", "ResourceSlice"};

}  // namespace

TEST_CASE("a snapshot past a kind's cap keeps the first objects and says the list is cut", "[snapshot][caps]") {
  loaded_state loaded(slices(503));
  const object_store& store = loaded.state.store;
  CHECK(store.count(slice_kind) == 500);
  CHECK(store.get(slice_kind, "", "slice-499") != nullptr);
  CHECK(store.get(slice_kind, "", "slice-500") == nullptr);
  const list_completeness completeness = store.completeness(slice_kind);
  CHECK(completeness.value == list_completeness::state::truncated);
  CHECK(completeness.reason == "cut at 500 Resource Slices");
}

TEST_CASE("a snapshot within a kind's cap keeps everything and is complete", "[snapshot][caps]") {
  loaded_state loaded(slices(500));
  CHECK(loaded.state.store.count(slice_kind) == 500);
  CHECK(loaded.state.store.completeness(slice_kind).complete());
}
