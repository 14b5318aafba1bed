#include "auth/client_budget.hpp"

#include <algorithm>
#include <cmath>

namespace sextant {

client_budget::client_budget(double per_minute, double burst, std::size_t max_clients)
    : per_second_(per_minute / 60.0),
      burst_(std::max(1.0, burst)),
      max_clients_(std::max<std::size_t>(1, max_clients)) {}

bool client_budget::take(const std::string& client, time now, std::chrono::seconds& retry_after) {
  auto it = buckets_.find(client);
  if (it == buckets_.end()) {
    while (buckets_.size() >= max_clients_) {
      buckets_.erase(order_.front());
      order_.pop_front();
    }
    order_.push_back(client);
    it = buckets_.emplace(client, bucket{burst_, now, std::prev(order_.end())}).first;
  } else {
    order_.splice(order_.end(), order_, it->second.position);
  }
  bucket& held = it->second;
  const double elapsed = std::chrono::duration<double>(now - held.updated).count();
  held.left = std::min(burst_, held.left + std::max(0.0, elapsed) * per_second_);
  held.updated = now;
  if (held.left >= 1.0) {
    held.left -= 1.0;
    return true;
  }
  const double wait = per_second_ > 0 ? (1.0 - held.left) / per_second_ : 60.0;
  retry_after = std::chrono::seconds(static_cast<long>(std::ceil(wait)));
  return false;
}

void client_budget::give_back(const std::string& client) {
  if (auto it = buckets_.find(client); it != buckets_.end()) {
    it->second.left = std::min(burst_, it->second.left + 1.0);
  }
}

}  // namespace sextant
