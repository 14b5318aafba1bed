#pragma once
// Writes one packed value (store/packed_value.hpp) front to back, as a parser meets it.
//
// Containers are opened and closed around their contents; their counts and sizes are filled in
// when they close. `finish()` hands the bytes to a body of exactly their size, and the writer is
// ready for the next value with its buffer kept: the ingest path reuses one writer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/packed_value.hpp"
#include "util/json.hpp"

namespace sextant {

class packed_writer {
 public:
  void null();
  void boolean(bool value);
  void signed_integer(std::int64_t value);
  void unsigned_integer(std::uint64_t value);
  void number(double value);
  void string(std::string_view value);

  void begin_array();
  void end_array();
  void begin_object();
  // The next member's key; its value is written next.
  void key(std::string_view key);
  void end_object();

  // Copies a whole value: an nlohmann one, or one already packed.
  void write(const json& value);
  void write(const packed_value& value);

  // The value written so far, which must be complete.
  packed_body finish();
  // Drops anything written: after a parse error part way through a value.
  void reset();

 private:
  void value_written();
  void put_tag(packed_tag tag);
  void put_text(std::string_view text);
  void put_varint(std::uint64_t value);
  template <typename T>
  void put_scalar(T value);
  void begin_container(packed_tag tag);
  void end_container();

  std::string buffer_;
  // For each open container: where its header starts, and how many elements or members so far.
  struct open_container {
    std::size_t header;
    std::uint32_t count;
  };
  std::vector<open_container> open_;
};

}  // namespace sextant
