#include "support/demo_daemon.hpp"

#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

namespace sextant::testing {

demo_daemon::demo_daemon(bool all_categories) : clock(at("2026-11-29T12:00:00Z")), state(all_sections(), clock) {
  snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
  snapshot_report report = loader.load(source_dir() / "examples" / "demo-cluster");
  for (const load_problem& error : report.errors) {
    FAIL_CHECK(error.path << ":" << error.line << ": " << error.message);
  }
  REQUIRE(report.errors.empty());
  state.settle_snapshot_lists();
  if (all_categories) {
    for (const problem_category& category : state.problems.categories()) {
      state.problems.set_enabled(category.id, true);
    }
  }
  state.evaluate_problems();
}

std::pair<int, json> demo_daemon::get(const std::string& target) {
  api_response response = router.handle({"GET", target, "", ""});
  return {response.status, response.body.empty() ? json(nullptr) : json::parse(response.body)};
}

}  // namespace sextant::testing
