#pragma once
// A 64-bit FNV-1a digest and its hex form: names a set of generations, an answer's version or a
// list position. It protects nothing (a caller can read every input), so speed is what matters.
#include <cstdint>
#include <string>
#include <string_view>

namespace sextant {

struct fnv1a {
  std::uint64_t value = 0xcbf29ce484222325ULL;

  // Text is followed by a 0 byte, so that ("a", "bc") and ("ab", "c") digest differently.
  void add(std::string_view text);
  // Little-endian, 8 bytes.
  void add(std::uint64_t number);
  void add_byte(unsigned char byte) { value = (value ^ byte) * 0x100000001b3ULL; }
};

// 16 lower-case hex digits.
std::string hex16(std::uint64_t value);

}  // namespace sextant
