#pragma once
// Finds where each top-level value of a concatenated JSON stream begins and ends
// (`kubectl cluster-info dump` writes several lists one after the other), without parsing
// them: strings, escapes and bracket depth are enough. Each value is then decoded on its own,
// so a broken one is reported and the values around it still load.
//
// Written here because simdjson 3.0's iterate_many reads out of bounds on some malformed
// streams (found by fuzz_snapshot_json), and snapshot files are outside input.
#include <cstddef>
#include <string_view>
#include <vector>

namespace sextant {

struct json_value_text {
  std::string_view text;
  std::size_t offset = 0;  // where `text` begins in the stream
};

// Values in stream order. An object or array that never closes runs to the end of the
// stream; a stray closing bracket is a value of its own (the decoder will refuse both).
std::vector<json_value_text> split_json_values(std::string_view stream);

}  // namespace sextant
