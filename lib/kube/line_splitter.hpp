#pragma once
// Splits a watch stream's bytes into lines. The API server writes one JSON object per line,
// but the network cuts the stream anywhere: a line may arrive in many pieces, a piece may
// hold many lines. What follows the last '\n' is carried over to the next piece.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sextant::kube {

class line_splitter {
 public:
  explicit line_splitter(std::size_t max_line = std::size_t{64} << 20) : max_line_(max_line) {}

  // Appends `data` and returns every line it completed, without the '\n' (nor a '\r' before
  // it); blank lines are dropped. The views stay valid until the next call.
  const std::vector<std::string_view>& feed(std::string_view data);

  // Whether a line grew past the maximum: the stream cannot be trusted any more.
  bool overflowed() const { return overflowed_; }
  // Bytes waiting for their '\n'.
  std::size_t pending() const { return carry_.size() - consumed_; }
  void reset();

 private:
  std::string carry_;
  std::size_t consumed_ = 0;  // bytes of carry_ already handed out
  std::vector<std::string_view> lines_;
  std::size_t max_line_;
  bool overflowed_ = false;
};

}  // namespace sextant::kube
