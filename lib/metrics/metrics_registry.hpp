#pragma once
// Counters and gauges in Prometheus' text exposition format (version 0.0.4).
//
// Small on purpose: the daemon exports a few dozen series, all updated on the event loop, so a
// map per family is enough and needs no locking. Values that are cheaper to compute at scrape
// time than to keep current (cache sizes, current problems) come from collectors.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sextant {

using metric_labels = std::vector<std::pair<std::string, std::string>>;

class metrics_registry {
 public:
  enum class metric_type { counter, gauge, histogram };

  // Adds `by` to a counter series (created at 0 on first use).
  void increment(const std::string& name, const metric_labels& labels = {}, double by = 1);
  // Sets a gauge series.
  void set(const std::string& name, const metric_labels& labels, double value);
  // Declares a family's help text and type; series of undeclared families are untyped.
  void describe(const std::string& name, metric_type type, std::string help);
  // Declares a histogram with its buckets' upper bounds (ascending; +Inf is added).
  void describe_histogram(const std::string& name, std::string help, std::vector<double> bounds);
  // Adds one observation to a declared histogram's series.
  void observe(const std::string& name, const metric_labels& labels, double value);
  // A function that sets gauges just before each render (cache sizes, problems).
  void add_collector(std::function<void(metrics_registry&)> collect);
  // Removes every series of a family (before a collector sets the current ones).
  void clear(const std::string& name);
  // Replaces a family's series given already rendered, one `series_line` each: for families of
  // thousands of series (one per current problem) that a collector re-renders only when they
  // change, instead of rebuilding them as map entries at every scrape.
  void set_rendered(const std::string& name, std::string lines);
  // One series in the exposition format, with its newline.
  static std::string series_line(const std::string& name, const metric_labels& labels, double value);

  double value(const std::string& name, const metric_labels& labels = {}) const;
  std::string render();

 private:
  struct histogram_series {
    std::vector<std::uint64_t> counts;  // per bound, not cumulative; the last is +Inf
    double sum = 0;
    std::uint64_t count = 0;
  };
  struct family {
    metric_type type = metric_type::gauge;
    std::string help;
    bool described = false;
    std::map<metric_labels, double> series;
    std::vector<double> bounds;
    std::map<metric_labels, histogram_series> histograms;
    std::string rendered;  // set_rendered's lines, after `series`
  };
  std::map<std::string, family> families_;
  std::vector<std::function<void(metrics_registry&)>> collectors_;
};

}  // namespace sextant
