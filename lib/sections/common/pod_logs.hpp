#pragma once
// Pod logs as a streaming route serves them: the query it takes (follow, tailLines), how a merged
// log is capped and prefixed, and the merging itself, as pure functions over the bytes each
// upstream log delivers. The daemon's streamer (app/pod_log_streamer) only moves bytes between
// the API server and the client through a `log_merger`; what the client reads is decided here.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sections/streaming_route.hpp"
#include "store/object.hpp"

namespace sextant {

// The most logs merged into one answer: a tab of more than 20 interleaved streams is unreadable,
// and each is a connection to the API server (and from it to a kubelet).
inline constexpr std::size_t max_merged_logs = 20;
// What starts every line the daemon itself writes into a log answer.
inline constexpr std::string_view log_notice_prefix = "[sextant] ";
// The longest line a merged log holds before it is cut: a log without newlines must not grow
// the daemon's memory without bound.
inline constexpr std::size_t max_log_line = std::size_t{1} << 20;

// The query parameters every log route takes.
inline const std::vector<std::string> log_parameters = {"follow", "tailLines"};

struct log_options {
  bool follow = false;
  std::optional<std::int64_t> tail_lines;
  std::string error;  // set when a parameter cannot be read
};
// follow=true|false (1|0), tailLines=N (N >= 0), as the API server takes them.
log_options parse_log_options(const std::map<std::string, std::string>& query);

// A pod's container by name if it has it, else its first container; empty when it lists none.
std::string container_of(const cached_object& pod, std::string_view preferred = {});

// The prefix of a merged log's lines from one pod.
std::string pod_prefix(const std::string& pod);

// The plan of a merged log: the first `max` sources in the order given, each prefixed with its
// pod, and a first notice naming those left out (`what` is their plural: "worker pods").
pod_log_plan merged_log_plan(std::vector<pod_log_source> sources, const log_options& options, std::string_view what,
                             std::size_t max = max_merged_logs);
// The plan of one pod's log, shown as it is.
pod_log_plan single_log_plan(pod_log_source source, const log_options& options);

// Turns what each upstream log delivers into the answer's text. A source with a prefix is cut into
// lines, each written whole with its prefix (a line's end is '\n'; blank lines are kept, unlike
// kube::line_splitter's, which a watch stream needs dropped); one without is passed through as is.
class log_merger {
 public:
  explicit log_merger(const std::vector<pod_log_source>& sources);

  // The text for `bytes` that arrived from source `index`.
  std::string feed(std::size_t index, std::string_view bytes);
  // The source could not be opened: a notice saying why.
  std::string open_failed(std::size_t index, std::string_view why);
  // The source ended: its unfinished last line, and a notice when it broke (`error` set) or, when
  // followed, that the API server ended it.
  std::string end(std::size_t index, std::string_view error, bool followed);
  // A notice of the daemon's own, on a line of its own.
  std::string notice(std::string_view text);

 private:
  struct source_state {
    std::string prefix;
    std::string pod;
    std::string carry;  // a prefixed source's unfinished line
  };
  std::string line_break_if_open();
  std::vector<source_state> sources_;
  bool at_line_start_ = true;  // whether the text written so far ends a line
};

}  // namespace sextant
