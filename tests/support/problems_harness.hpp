#pragma once
// The harness every section's problem tests share: one section's rules in a problem engine, run
// over a fixture cluster as the daemon's timer runs them (at the cluster's clock, which a test
// moves to cross a threshold), and one way to find a problem in what it returns.
#include <optional>
#include <string>
#include <vector>

#include "problems/problem_engine.hpp"
#include "sections/section.hpp"
#include "support/fixtures.hpp"

namespace sextant::testing {

class problems_harness {
 public:
  // The rules and categories of one section (e.g. kserve::make_section()), every category on.
  explicit problems_harness(const section& rules_of);

  // Evaluates at the cluster's clock, or first moves the clock to `when` (RFC 3339). The problems
  // returned stay valid, and found problems point into them, until the next evaluation.
  const std::vector<problem>& evaluate(const fixture_cluster& cluster);
  const std::vector<problem>& evaluate(const view_context& context);
  const std::vector<problem>& evaluate_at(fixture_cluster& cluster, const char* when);

  // The problems of the last evaluation, and when the engine next wants to run.
  const std::vector<problem>& current() const { return current_; }
  std::optional<time_point> next_due() const { return engine_.next_due(); }
  // For the few tests that switch a category or read the engine's own answers.
  problem_engine& engine() { return engine_; }

 private:
  problem_engine engine_;
  std::vector<problem> current_;
};

// The problems a section's rules find over a cluster at its clock: one evaluation, no history.
std::vector<problem> problems_of(const section& rules_of, const fixture_cluster& cluster);

// The problem about an object of this kind and name (and of this finding id, when given), or null.
const problem* problem_of(const std::vector<problem>& problems, const kind_key& type, const std::string& name,
                          const std::string& finding_id = "");

}  // namespace sextant::testing
