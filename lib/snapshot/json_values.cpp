#include "snapshot/json_values.hpp"

namespace sextant {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_structural(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == '"';
}

// The index just past the string that opens at `pos` (a '"'), or the stream's end.
std::size_t skip_string(std::string_view stream, std::size_t pos) {
  for (++pos; pos < stream.size(); ++pos) {
    if (stream[pos] == '\\') {
      ++pos;
    } else if (stream[pos] == '"') {
      return pos + 1;
    }
  }
  return stream.size();
}

// The index just past the object or array that opens at `pos`, or the stream's end.
std::size_t skip_container(std::string_view stream, std::size_t pos) {
  std::size_t depth = 0;
  while (pos < stream.size()) {
    char c = stream[pos];
    if (c == '"') {
      pos = skip_string(stream, pos);
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return pos + 1;
    }
    ++pos;
  }
  return stream.size();
}

// The index just past a bare scalar (number, true, null, or garbage) that starts at `pos`.
std::size_t skip_scalar(std::string_view stream, std::size_t pos) {
  while (pos < stream.size() && !is_space(stream[pos]) && !is_structural(stream[pos])) {
    ++pos;
  }
  return pos;
}

}  // namespace

std::vector<json_value_text> split_json_values(std::string_view stream) {
  std::vector<json_value_text> values;
  std::size_t pos = 0;
  while (true) {
    while (pos < stream.size() && is_space(stream[pos])) {
      ++pos;
    }
    if (pos >= stream.size()) {
      break;
    }
    std::size_t end;
    char c = stream[pos];
    if (c == '{' || c == '[') {
      end = skip_container(stream, pos);
    } else if (c == '"') {
      end = skip_string(stream, pos);
    } else if (c == '}' || c == ']') {
      end = pos + 1;
    } else {
      end = skip_scalar(stream, pos);
    }
    values.push_back({stream.substr(pos, end - pos), pos});
    pos = end;
  }
  return values;
}

}  // namespace sextant
