#pragma once
// What the soak (bench/soak) samples of a running daemon every 10 s: its resident memory and
// open files from /proc, and its own figures from a /metrics text (the event loop's lag
// histogram, the cached objects).
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace sextant::integration {

struct process_usage {
  long rss_kb = -1;  // VmRSS; -1 when the process is gone
  int open_fds = -1;
};
process_usage usage_of(pid_t pid);

// A Prometheus text exposition: every sample line's value by its series as written
// (`name{label="v",...}`), comments skipped.
std::map<std::string, double> parse_exposition(const std::string& text);
// The sum of every series of `name` (any labels), 0 when there is none.
double sum_of(const std::map<std::string, double>& series, const std::string& name);

// A histogram's cumulative buckets (upper bound -> count), sum and count at one scrape.
struct histogram_reading {
  std::map<double, double> buckets;
  double sum = 0;
  double count = 0;
};
histogram_reading histogram_of(const std::map<std::string, double>& series, const std::string& name);

// What a histogram saw between two scrapes: the mean and the bucket bound under which 99% fell
// (+Inf shows as the largest finite bound doubled); both 0 when nothing was observed.
struct interval_figures {
  double mean = 0;
  double p99_bound = 0;
  double observed = 0;
};
interval_figures between(const histogram_reading& before, const histogram_reading& after);

}  // namespace sextant::integration
