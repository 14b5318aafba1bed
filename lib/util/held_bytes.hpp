#pragma once
// What a string holds on the heap beyond its own object, for memory accounting: nothing while it
// is short (libstdc++ keeps up to 15 characters inside the std::string), else its capacity and
// the terminating zero.
#include <cstddef>
#include <string>

namespace sextant {

inline std::size_t heap_bytes(const std::string& text) {
  return text.capacity() > 15 ? text.capacity() + 1 : 0;
}

// A rough price of one node of a std::map or std::list (the allocator's header and the links),
// so that a map of a million small entries is not counted as free.
inline constexpr std::size_t node_overhead = 48;

}  // namespace sextant
