#include "util/digest.hpp"

#include <cstdio>

namespace sextant {

void fnv1a::add(std::string_view text) {
  for (char c : text) {
    add_byte(static_cast<unsigned char>(c));
  }
  add_byte(0);
}

void fnv1a::add(std::uint64_t number) {
  for (int i = 0; i < 8; ++i) {
    add_byte(static_cast<unsigned char>(number >> (8 * i)));
  }
}

std::string hex16(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

}  // namespace sextant
