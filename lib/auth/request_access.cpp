#include "auth/request_access.hpp"

#include <algorithm>

namespace sextant {

std::optional<bool> request_access::may(const access_check& check) {
  std::optional<bool> decision = known_ ? known_(who_, check) : std::nullopt;
  if (!decision && std::find(pending_.begin(), pending_.end(), check) == pending_.end()) {
    pending_.push_back(check);
  }
  return decision;
}

std::vector<access_check> request_access::take_pending() {
  std::vector<access_check> out;
  out.swap(pending_);
  return out;
}

}  // namespace sextant
