#pragma once
// The status line and header fields of an answer, written as bytes into a buffer the connection
// keeps from one answer to the next. Beast's fields allocate a node for every field and its
// serializer walks them again; an answer's head is a few fixed fields and the answer's own, so
// formatting it straight into reused capacity costs no allocation once the buffer has grown.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sextant {

struct response_head {
  int status = 200;
  unsigned version = 11;  // 10 or 11, as the request came
  std::string_view content_type;
  const std::vector<std::pair<std::string, std::string>>* fields = nullptr;  // ETag, Vary, Allow, ...
  bool keep_alive = true;
  std::optional<std::size_t> content_length;  // none for 304 and 204
};

// Replaces `out` with the head, ending in the blank line. A field value holding CR or LF is
// written with them as spaces, so that no value can end the head early.
void format_response_head(std::string& out, const response_head& head);

}  // namespace sextant
