#include "kube/line_splitter.hpp"

namespace sextant::kube {

const std::vector<std::string_view>& line_splitter::feed(std::string_view data) {
  lines_.clear();
  // Drop what the previous call handed out; its views are no longer promised.
  if (consumed_ > 0) {
    carry_.erase(0, consumed_);
    consumed_ = 0;
  }
  const std::size_t scanned = carry_.size();
  carry_.append(data);
  std::size_t start = 0;
  std::size_t search = scanned;
  for (;;) {
    std::size_t newline = carry_.find('\n', search);
    if (newline == std::string::npos) {
      break;
    }
    std::string_view line(carry_.data() + start, newline - start);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (!line.empty()) {
      lines_.push_back(line);
    }
    start = newline + 1;
    search = start;
  }
  consumed_ = start;
  if (carry_.size() - consumed_ > max_line_) {
    overflowed_ = true;
  }
  return lines_;
}

void line_splitter::reset() {
  carry_.clear();
  consumed_ = 0;
  lines_.clear();
  overflowed_ = false;
}

}  // namespace sextant::kube
