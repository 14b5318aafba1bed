#pragma once
// LEB128 varints, as packed bodies store counts, sizes and integers (store/packed_value.hpp):
// seven bits a byte, low groups first, the high bit set on every byte but the last.
#include <cstddef>
#include <cstdint>

namespace sextant {

// Writes `value` to `out` (room for 10 bytes); returns the bytes written.
inline std::size_t encode_varint(std::uint64_t value, char* out) {
  std::size_t used = 0;
  while (value >= 0x80) {
    out[used++] = static_cast<char>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  out[used++] = static_cast<char>(value);
  return used;
}

struct decoded_varint {
  std::uint64_t value;
  std::size_t bytes;
};

// Reads the varint at `at`, which a packed_writer wrote (so it ends within 10 bytes).
inline decoded_varint decode_varint(const std::uint8_t* at) {
  std::uint64_t value = 0;
  std::size_t used = 0;
  for (unsigned shift = 0;; shift += 7) {
    const std::uint8_t byte = at[used++];
    value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0 || shift >= 63) {
      return {value, used};
    }
  }
}

}  // namespace sextant
