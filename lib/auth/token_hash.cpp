#include "auth/token_hash.hpp"

#include "util/sha256.hpp"

namespace sextant {

std::string token_hash(std::string_view token) {
  return sha256_hex(token);
}

}  // namespace sextant
