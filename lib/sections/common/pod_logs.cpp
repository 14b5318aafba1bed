#include "sections/common/pod_logs.hpp"

#include <charconv>

#include "util/json.hpp"

namespace sextant {

log_options parse_log_options(const std::map<std::string, std::string>& query) {
  log_options options;
  if (auto it = query.find("follow"); it != query.end()) {
    if (it->second == "true" || it->second == "1") {
      options.follow = true;
    } else if (it->second != "false" && it->second != "0") {
      options.error = "follow must be true or false, not \"" + it->second.substr(0, 40) + "\"";
      return options;
    }
  }
  if (auto it = query.find("tailLines"); it != query.end()) {
    std::int64_t lines = -1;
    const std::string& text = it->second;
    auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), lines);
    if (failed != std::errc() || end != text.data() + text.size() || lines < 0) {
      options.error = "tailLines must be a whole number of lines, 0 or more, not \"" + text.substr(0, 40) + "\"";
      return options;
    }
    options.tail_lines = lines;
  }
  return options;
}

std::string container_of(const cached_object& pod, std::string_view preferred) {
  const packed_value& containers = array_or_empty(pod.body(), {"spec", "containers"});
  std::string first;
  for (const packed_value& container : containers) {
    std::string name = string_or(container, {"name"});
    if (!preferred.empty() && name == preferred) {
      return name;
    }
    if (first.empty()) {
      first = std::move(name);
    }
  }
  return first;
}

std::string pod_prefix(const std::string& pod) {
  return "[pod/" + pod + "] ";
}

pod_log_plan merged_log_plan(std::vector<pod_log_source> sources, const log_options& options, std::string_view what,
                             std::size_t max) {
  pod_log_plan plan;
  plan.follow = options.follow;
  plan.tail_lines = options.tail_lines;
  if (sources.size() > max) {
    std::string left_out;
    for (std::size_t i = max; i < sources.size(); ++i) {
      left_out += (left_out.empty() ? "" : ", ") + sources[i].pod;
    }
    plan.notices.push_back(std::to_string(sources.size()) + " " + std::string(what) + "; merged here: the first " +
                           std::to_string(max) + " by name; left out (" + std::to_string(sources.size() - max) +
                           "): " + left_out + ".");
    sources.resize(max);
  }
  for (pod_log_source& source : sources) {
    source.prefix = pod_prefix(source.pod);
  }
  plan.sources = std::move(sources);
  return plan;
}

pod_log_plan single_log_plan(pod_log_source source, const log_options& options) {
  pod_log_plan plan;
  plan.follow = options.follow;
  plan.tail_lines = options.tail_lines;
  source.prefix.clear();
  plan.sources.push_back(std::move(source));
  return plan;
}

log_merger::log_merger(const std::vector<pod_log_source>& sources) {
  for (const pod_log_source& source : sources) {
    sources_.push_back(source_state{source.prefix, source.pod, {}});
  }
}

std::string log_merger::line_break_if_open() {
  if (at_line_start_) {
    return {};
  }
  at_line_start_ = true;
  return "\n";
}

std::string log_merger::feed(std::size_t index, std::string_view bytes) {
  if (index >= sources_.size() || bytes.empty()) {
    return {};
  }
  source_state& source = sources_[index];
  if (source.prefix.empty()) {
    at_line_start_ = bytes.back() == '\n';
    return std::string(bytes);
  }
  std::string out;
  std::size_t start = 0;
  for (;;) {
    std::size_t newline = bytes.find('\n', start);
    if (newline == std::string_view::npos) {
      break;
    }
    out += source.prefix;
    out += source.carry;
    out.append(bytes.substr(start, newline + 1 - start));
    source.carry.clear();
    start = newline + 1;
  }
  source.carry.append(bytes.substr(start));
  if (source.carry.size() >= max_log_line) {
    out += source.prefix + source.carry.substr(0, max_log_line) + "\n";
    source.carry.erase(0, max_log_line);
  }
  if (!out.empty()) {
    // A prefixed source writes whole lines only, so what came before ended its line.
    out.insert(0, line_break_if_open());
    at_line_start_ = true;
  }
  return out;
}

std::string log_merger::notice(std::string_view text) {
  std::string out = line_break_if_open();
  out += log_notice_prefix;
  out += text;
  out += "\n";
  return out;
}

std::string log_merger::open_failed(std::size_t index, std::string_view why) {
  if (index >= sources_.size()) {
    return {};
  }
  return notice("cannot read the log of pod " + sources_[index].pod + ": " + std::string(why));
}

std::string log_merger::end(std::size_t index, std::string_view error, bool followed) {
  if (index >= sources_.size()) {
    return {};
  }
  source_state& source = sources_[index];
  std::string out;
  if (!source.carry.empty()) {
    out += line_break_if_open() + source.prefix + source.carry + "\n";
    source.carry.clear();
    at_line_start_ = true;
  }
  if (!error.empty()) {
    out += notice("the log of pod " + source.pod + " broke: " + std::string(error) + ".");
  } else if (followed) {
    // Through the API server a broken connection to the node ends the stream as cleanly as a
    // container that stopped: the daemon cannot tell the two apart, so it says both.
    out += notice("the API server ended the log of pod " + source.pod +
                  " (its container stopped, or the connection to its node broke).");
  }
  return out;
}

}  // namespace sextant
