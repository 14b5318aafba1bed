// The log merger cuts upstream bytes into lines: no input may crash it, every line of a merged
// log starts with its pod's prefix or the daemon's notice mark, none is longer than the limit,
// and no byte is lost or invented (each source's bytes come out in order, between its prefixes).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sections/common/pod_logs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // First byte: how the input is cut into pieces and among which of three sources.
  if (size == 0) {
    return 0;
  }
  const std::uint8_t control = data[0];
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<sextant::pod_log_source> sources;
  for (const char* pod : {"a", "b", "c"}) {
    sources.push_back(sextant::pod_log_source{"ns", pod, "c", {}});
  }
  sextant::pod_log_plan plan = sextant::merged_log_plan(sources, {}, "pods");
  sextant::log_merger merger(plan.sources);
  std::string out;
  std::vector<std::string> fed(3);
  const std::size_t piece = 1 + control % 17;
  std::size_t turn = control / 17;
  for (std::size_t at = 0; at < input.size(); at += piece) {
    std::string_view bytes = input.substr(at, piece);
    const std::size_t source = turn++ % 3;
    fed[source].append(bytes);
    out += merger.feed(source, bytes);
  }
  for (std::size_t source = 0; source < 3; ++source) {
    out += merger.end(source, (control & 1) ? "broke" : "", (control & 2) != 0);
  }
  std::vector<std::string> read_back(3);
  for (std::size_t start = 0; start < out.size();) {
    std::size_t newline = out.find('\n', start);
    if (newline == std::string::npos) {
      std::abort();  // a merged log is whole lines
    }
    std::string_view line(out.data() + start, newline - start);
    if (line.starts_with(sextant::log_notice_prefix)) {
      start = newline + 1;
      continue;
    }
    bool found = false;
    for (std::size_t source = 0; source < 3; ++source) {
      const std::string& prefix = plan.sources[source].prefix;
      if (line.starts_with(prefix)) {
        if (line.size() - prefix.size() > sextant::max_log_line) {
          std::abort();
        }
        read_back[source].append(line.substr(prefix.size()));
        // A line that was cut at the limit had no newline of its own.
        if (line.size() - prefix.size() != sextant::max_log_line) {
          read_back[source] += '\n';
        }
        found = true;
        break;
      }
    }
    if (!found) {
      std::abort();
    }
    start = newline + 1;
  }
  for (std::size_t source = 0; source < 3; ++source) {
    std::string expected = fed[source];
    if (!expected.empty() && expected.back() != '\n') {
      expected += '\n';  // an unfinished last line is ended when its log ends
    }
    if (read_back[source] != expected && fed[source].size() < sextant::max_log_line) {
      std::abort();
    }
  }
  return 0;
}
