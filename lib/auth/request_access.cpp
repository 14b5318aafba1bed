#include "auth/request_access.hpp"

#include <algorithm>

namespace sextant {

std::optional<bool> request_access::may(const access_check& check) {
  std::optional<kept_decision> decision = known_ ? known_(who_, check) : std::nullopt;
  if (!decision) {
    if (std::find(pending_.begin(), pending_.end(), check) == pending_.end()) {
      pending_.push_back(check);
    }
    return std::nullopt;
  }
  hold_until_ = std::min(hold_until_, decision->until);
  return decision->allowed;
}

std::vector<access_check> request_access::take_pending() {
  std::vector<access_check> out;
  out.swap(pending_);
  return out;
}

const std::string& request_access::caller_part() {
  if (!caller_part_) {
    caller_part_ = caller_key(who_);
  }
  return *caller_part_;
}

}  // namespace sextant
