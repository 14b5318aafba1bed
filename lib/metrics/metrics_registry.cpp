#include "metrics/metrics_registry.hpp"

#include <cmath>
#include <cstdio>

namespace sextant {
namespace {

std::string escape_label(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_value(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "+Inf" : "-Inf";
  }
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

}  // namespace

void metrics_registry::increment(const std::string& name, const metric_labels& labels, double by) {
  family& f = families_[name];
  if (!f.described) {
    f.type = metric_type::counter;
  }
  f.series[labels] += by;
}

void metrics_registry::set(const std::string& name, const metric_labels& labels, double value) {
  families_[name].series[labels] = value;
}

void metrics_registry::describe(const std::string& name, metric_type type, std::string help) {
  family& f = families_[name];
  f.type = type;
  f.help = std::move(help);
  f.described = true;
}

void metrics_registry::add_collector(std::function<void(metrics_registry&)> collect) {
  collectors_.push_back(std::move(collect));
}

void metrics_registry::clear(const std::string& name) {
  if (auto it = families_.find(name); it != families_.end()) {
    it->second.series.clear();
  }
}

double metrics_registry::value(const std::string& name, const metric_labels& labels) const {
  auto f = families_.find(name);
  if (f == families_.end()) {
    return 0;
  }
  auto s = f->second.series.find(labels);
  return s == f->second.series.end() ? 0 : s->second;
}

void metrics_registry::describe_histogram(const std::string& name, std::string help, std::vector<double> bounds) {
  family& f = families_[name];
  f.type = metric_type::histogram;
  f.help = std::move(help);
  f.described = true;
  f.bounds = std::move(bounds);
}

void metrics_registry::observe(const std::string& name, const metric_labels& labels, double value) {
  family& f = families_[name];
  histogram_series& h = f.histograms[labels];
  h.counts.resize(f.bounds.size() + 1);
  std::size_t bucket = 0;
  while (bucket < f.bounds.size() && value > f.bounds[bucket]) {
    ++bucket;
  }
  ++h.counts[bucket];
  h.sum += value;
  ++h.count;
}

namespace {

std::string label_text(const metric_labels& labels, const std::string& extra_key = {},
                       const std::string& extra_value = {}) {
  std::string out;
  bool first = true;
  for (const auto& [key, label_value] : labels) {
    out += (first ? "" : ",") + key + "=\"" + escape_label(label_value) + "\"";
    first = false;
  }
  if (!extra_key.empty()) {
    out += (first ? "" : ",") + extra_key + "=\"" + extra_value + "\"";
    first = false;
  }
  return first ? std::string() : "{" + out + "}";
}

}  // namespace

std::string metrics_registry::series_line(const std::string& name, const metric_labels& labels, double value) {
  return name + label_text(labels) + ' ' + format_value(value) + '\n';
}

void metrics_registry::set_rendered(const std::string& name, std::string lines) {
  families_[name].rendered = std::move(lines);
}

std::string metrics_registry::render() {
  for (const auto& collect : collectors_) {
    collect(*this);
  }
  std::string out;
  for (const auto& [name, f] : families_) {
    if (!f.help.empty()) {
      out += "# HELP " + name + " " + f.help + "\n";
    }
    out += "# TYPE " + name +
           (f.type == metric_type::counter     ? " counter\n"
            : f.type == metric_type::histogram ? " histogram\n"
                                               : " gauge\n");
    for (const auto& [labels, h] : f.histograms) {
      std::uint64_t cumulative = 0;
      for (std::size_t i = 0; i < h.counts.size(); ++i) {
        cumulative += h.counts[i];
        std::string le = "+Inf";
        if (i < f.bounds.size()) {
          char bound[32];
          std::snprintf(bound, sizeof bound, "%g", f.bounds[i]);
          le = bound;
        }
        out += name + "_bucket" + label_text(labels, "le", le) + " " + std::to_string(cumulative) + "\n";
      }
      out += name + "_sum" + label_text(labels) + " " + format_value(h.sum) + "\n";
      out += name + "_count" + label_text(labels) + " " + std::to_string(h.count) + "\n";
    }
    for (const auto& [labels, value] : f.series) {
      out += series_line(name, labels, value);
    }
    out += f.rendered;
  }
  return out;
}

}  // namespace sextant
