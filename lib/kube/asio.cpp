#include "kube/asio.hpp"

namespace sextant::kube {

net::awaitable<bool> sleep_for(net::steady_timer& timer, std::chrono::steady_clock::duration duration) {
  timer.expires_after(duration);
  auto [ec] = co_await timer.async_wait(use_tuple);
  co_return !ec;
}

}  // namespace sextant::kube
