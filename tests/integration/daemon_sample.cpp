#include "daemon_sample.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace sextant::integration {

process_usage usage_of(pid_t pid) {
  process_usage usage;
  const std::filesystem::path proc = "/proc/" + std::to_string(pid);
  std::ifstream status(proc / "status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) {
      std::istringstream(line.substr(6)) >> usage.rss_kb;
    }
  }
  std::error_code ec;
  int fds = 0;
  for (std::filesystem::directory_iterator it(proc / "fd", ec), end; !ec && it != end; it.increment(ec)) {
    ++fds;
  }
  if (!ec) {
    usage.open_fds = fds;
  }
  return usage;
}

std::map<std::string, double> parse_exposition(const std::string& text) {
  std::map<std::string, double> series;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    // The value follows the last space (label values may hold spaces; the daemon writes no
    // timestamps).
    const std::size_t space = line.rfind(' ');
    if (space == std::string::npos || space == 0) {
      continue;
    }
    const std::string value = line.substr(space + 1);
    double parsed = 0;
    if (value == "+Inf") {
      parsed = std::numeric_limits<double>::infinity();
    } else if (value == "NaN") {
      parsed = std::numeric_limits<double>::quiet_NaN();
    } else {
      try {
        parsed = std::stod(value);
      } catch (const std::exception&) {
        continue;
      }
    }
    series[line.substr(0, space)] = parsed;
  }
  return series;
}

double sum_of(const std::map<std::string, double>& series, const std::string& name) {
  double total = 0;
  for (auto it = series.lower_bound(name); it != series.end() && it->first.starts_with(name); ++it) {
    if (it->first == name || it->first[name.size()] == '{') {
      total += it->second;
    }
  }
  return total;
}

histogram_reading histogram_of(const std::map<std::string, double>& series, const std::string& name) {
  histogram_reading reading;
  const std::string bucket = name + "_bucket{le=\"";
  for (auto it = series.lower_bound(bucket); it != series.end() && it->first.starts_with(bucket); ++it) {
    const std::string bound = it->first.substr(bucket.size(), it->first.find('"', bucket.size()) - bucket.size());
    const double le = bound == "+Inf" ? std::numeric_limits<double>::infinity() : std::stod(bound);
    reading.buckets[le] = it->second;
  }
  if (auto it = series.find(name + "_sum"); it != series.end()) {
    reading.sum = it->second;
  }
  if (auto it = series.find(name + "_count"); it != series.end()) {
    reading.count = it->second;
  }
  return reading;
}

interval_figures between(const histogram_reading& before, const histogram_reading& after) {
  interval_figures figures;
  figures.observed = after.count - before.count;
  if (figures.observed <= 0) {
    return figures;
  }
  figures.mean = (after.sum - before.sum) / figures.observed;
  double largest_finite = 0;
  for (const auto& [le, count] : after.buckets) {
    if (std::isfinite(le)) {
      largest_finite = le;
    }
  }
  for (const auto& [le, count] : after.buckets) {
    auto earlier = before.buckets.find(le);
    const double seen = count - (earlier == before.buckets.end() ? 0 : earlier->second);
    if (seen >= 0.99 * figures.observed) {
      figures.p99_bound = std::isfinite(le) ? le : 2 * largest_finite;
      break;
    }
  }
  return figures;
}

}  // namespace sextant::integration
