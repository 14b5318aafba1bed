#pragma once
// SHA-256, for keys that must never collide where a caller chooses the input: a bearer token's
// cached verdict, a caller's cut of a cached answer. (util/digest.hpp's FNV-1a is for what
// protects nothing.)
#include <string>
#include <string_view>

namespace sextant {

// Lower-case hex of the SHA-256 of `bytes` (64 characters).
std::string sha256_hex(std::string_view bytes);

}  // namespace sextant
