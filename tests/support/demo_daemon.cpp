#include "support/demo_daemon.hpp"

#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

namespace sextant::testing {
namespace {

void require_clean(const snapshot_report& report) {
  for (const load_problem& error : report.errors) {
    FAIL_CHECK(error.path << ":" << error.line << ": " << error.message);
  }
  REQUIRE(report.errors.empty());
}

}  // namespace

snapshot_daemon::snapshot_daemon(const char* now) : clock(at(now)), state(all_sections(), clock) {}

snapshot_daemon::snapshot_daemon(const std::string& snapshot_text, bool is_json, const char* now, bool all_categories)
    : snapshot_daemon(now) {
  snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
  snapshot_report report;
  loader.load_text(is_json ? "snapshot.json" : "snapshot.yaml", snapshot_text, is_json, report);
  require_clean(report);
  settle(all_categories);
}

void snapshot_daemon::settle(bool all_categories) {
  state.settle_snapshot_lists();
  if (all_categories) {
    for (const problem_category& category : state.problems.categories()) {
      state.problems.set_enabled(category.id, true);
    }
  }
  state.evaluate_problems();
  problem_series_ = std::make_unique<problem_metrics>(state.metrics);
  problem_series_->collect(state.problems, state.metrics);
}

std::pair<int, json> snapshot_daemon::get(const std::string& target) {
  auto [status, body] = get_text(target);
  return {status, body.empty() ? json(nullptr) : json::parse(body)};
}

std::pair<int, std::string> snapshot_daemon::get_text(const std::string& target) {
  api_response response = router.handle({"GET", target, "", ""});
  return {response.status, std::string(response.bytes())};
}

demo_daemon::demo_daemon(bool all_categories) : snapshot_daemon("2026-11-29T12:00:00Z") {
  snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
  require_clean(loader.load(source_dir() / "examples" / "demo-cluster"));
  settle(all_categories);
}

}  // namespace sextant::testing
