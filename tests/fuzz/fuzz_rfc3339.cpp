// Timestamps come from objects: parsing must reject what it cannot read, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "util/time.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = sextant::parse_rfc3339(std::string_view(reinterpret_cast<const char*>(data), size));
  if (parsed) {
    (void)sextant::format_rfc3339(*parsed);
  }
  return 0;
}
