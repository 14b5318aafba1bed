#include "support/problems_harness.hpp"

namespace sextant::testing {

problems_harness::problems_harness(const section& rules_of) : engine_(rules_of.categories, rules_of.rules) {}

const std::vector<problem>& problems_harness::evaluate(const fixture_cluster& cluster) {
  return evaluate(cluster.context());
}

const std::vector<problem>& problems_harness::evaluate(const view_context& context) {
  engine_.evaluate(context);
  current_ = engine_.current();
  return current_;
}

const std::vector<problem>& problems_harness::evaluate_at(fixture_cluster& cluster, const char* when) {
  cluster.now = at(when);
  return evaluate(cluster);
}

std::vector<problem> problems_of(const section& rules_of, const fixture_cluster& cluster) {
  problems_harness harness(rules_of);
  return harness.evaluate(cluster);
}

const problem* problem_of(const std::vector<problem>& problems, const kind_key& type, const std::string& name,
                          const std::string& finding_id) {
  for (const problem& p : problems) {
    if (p.type == type && p.name == name && (finding_id.empty() || p.finding_id == finding_id)) {
      return &p;
    }
  }
  return nullptr;
}

}  // namespace sextant::testing
