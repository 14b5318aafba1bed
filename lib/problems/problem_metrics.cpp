#include "problems/problem_metrics.hpp"

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "util/masking/uris.hpp"

namespace sextant {

problem_metrics::problem_metrics(metrics_registry& metrics) {
  metrics.describe("sextant_problems", metrics_registry::metric_type::gauge, "Current problems per category.");
  metrics.describe("sextant_problem", metrics_registry::metric_type::gauge, "One series per current problem.");
}

void problem_metrics::collect(const problem_engine& problems, metrics_registry& metrics) {
  if (rendered_generation_ == problems.generation()) {
    return;
  }
  rendered_generation_ = problems.generation();
  std::map<std::string, std::size_t> per_category;
  for (const problem_category& category : problems.categories()) {
    per_category[category.id] = 0;  // a category with none says 0, not nothing
  }
  // Two findings on one object are one series: its labels name the object, not the finding.
  std::set<std::tuple<std::string, std::string, std::string, std::string>> series;
  for (const problem& p : problems.current()) {
    ++per_category[p.category];
    // Names are Kubernetes names; a snapshot's may be anything, so they pass the URI net too.
    series.emplace(p.category, p.type.kind, masking::strip_uris_in_text(p.namespace_).text,
                   masking::strip_uris_in_text(p.name).text);
  }
  metrics.clear("sextant_problems");
  for (const auto& [category, count] : per_category) {
    metrics.set("sextant_problems", {{"category", category}}, static_cast<double>(count));
  }
  std::string lines;
  for (const auto& [category, kind, namespace_, name] : series) {
    lines += metrics_registry::series_line(
        "sextant_problem", {{"category", category}, {"kind", kind}, {"namespace", namespace_}, {"name", name}}, 1);
  }
  metrics.set_rendered("sextant_problem", std::move(lines));
}

}  // namespace sextant
