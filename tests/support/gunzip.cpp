#include "support/gunzip.hpp"

#include <zlib.h>

#include <catch2/catch.hpp>

namespace sextant::testing {

std::string gunzip(const std::string& data) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);  // 15 + 16: a gzip header, not a zlib one
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int result = Z_OK;
  while (result == Z_OK) {
    char buffer[4096];
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    result = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
  }
  inflateEnd(&z);
  REQUIRE(result == Z_STREAM_END);
  return out;
}

}  // namespace sextant::testing
