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

std::string metrics_registry::render() {
  for (const auto& collect : collectors_) {
    collect(*this);
  }
  std::string out;
  for (const auto& [name, f] : families_) {
    if (!f.help.empty()) {
      out += "# HELP " + name + " " + f.help + "\n";
    }
    out += "# TYPE " + name + (f.type == metric_type::counter ? " counter\n" : " gauge\n");
    for (const auto& [labels, value] : f.series) {
      out += name;
      if (!labels.empty()) {
        out += '{';
        bool first = true;
        for (const auto& [key, label_value] : labels) {
          out += (first ? "" : ",") + key + "=\"" + escape_label(label_value) + "\"";
          first = false;
        }
        out += '}';
      }
      out += ' ' + format_value(value) + '\n';
    }
  }
  return out;
}

}  // namespace sextant
