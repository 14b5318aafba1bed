#pragma once
// The key a bearer token's verdict is cached under: its SHA-256, so the daemon keeps no token.
#include <string>
#include <string_view>

namespace sextant {

// Lower-case hex of the SHA-256 of `token` (64 characters).
std::string token_hash(std::string_view token);

}  // namespace sextant
