#include "kube/base64.hpp"

#include <cstdint>

namespace sextant::kube {
namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') {
    return c - 'A';
  }
  if (c >= 'a' && c <= 'z') {
    return c - 'a' + 26;
  }
  if (c >= '0' && c <= '9') {
    return c - '0' + 52;
  }
  if (c == '+') {
    return 62;
  }
  if (c == '/') {
    return 63;
  }
  return -1;
}

}  // namespace

std::string base64_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    std::uint32_t n = (static_cast<std::uint8_t>(data[i]) << 16) | (static_cast<std::uint8_t>(data[i + 1]) << 8) |
                      static_cast<std::uint8_t>(data[i + 2]);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    out += alphabet[n & 63];
  }
  std::size_t left = data.size() - i;
  if (left > 0) {
    std::uint32_t n = static_cast<std::uint8_t>(data[i]) << 16;
    if (left == 2) {
      n |= static_cast<std::uint8_t>(data[i + 1]) << 8;
    }
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += left == 2 ? alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  std::uint32_t accumulator = 0;
  int bits = 0;
  int padding = 0;
  std::size_t symbols = 0;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (c == '=') {
      ++padding;
      ++symbols;
      continue;
    }
    if (padding > 0) {
      return std::nullopt;  // data after padding
    }
    int v = value_of(c);
    if (v < 0) {
      return std::nullopt;
    }
    ++symbols;
    accumulator = (accumulator << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((accumulator >> bits) & 0xFF);
    }
  }
  // Unpadded input is accepted (some tools strip '='), but a lone trailing symbol never is.
  if (padding > 2 || (padding > 0 && symbols % 4 != 0) || symbols % 4 == 1) {
    return std::nullopt;
  }
  return out;
}

}  // namespace sextant::kube
