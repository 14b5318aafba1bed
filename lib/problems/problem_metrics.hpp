#pragma once
// The problem families of /metrics: `sextant_problems` (how many per category) and
// `sextant_problem` (one series per current problem). At 5000 Workloads there are thousands of
// problems, and building their series again at every scrape held the event loop for 10-20 ms
// (issue 11's profile of /metrics scraped every 50 ms); they are rendered again only when the
// engine's generation says the current problems changed.
#include <cstdint>
#include <optional>

#include "metrics/metrics_registry.hpp"
#include "problems/problem_engine.hpp"

namespace sextant {

class problem_metrics {
 public:
  // Declares both families in `metrics`.
  explicit problem_metrics(metrics_registry& metrics);

  // Brings both families up to date with `problems`; a no-op while its generation is unchanged.
  void collect(const problem_engine& problems, metrics_registry& metrics);

 private:
  std::optional<std::uint64_t> rendered_generation_;
};

}  // namespace sextant
