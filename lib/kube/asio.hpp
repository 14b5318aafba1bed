#pragma once
// The Asio and Beast names every file of the kube client uses.
//
// Boost 1.81 with GCC 12 does not compile a co_await on an operation without a completion
// token, and the client treats I/O errors as values, so every operation is awaited with
// `use_tuple` (error_code first) and never throws.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace sextant::kube {

namespace net = boost::asio;
using error_code = boost::system::error_code;

inline constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

// Waits `duration` on the current executor; returns early (false) when the timer is cancelled.
net::awaitable<bool> sleep_for(net::steady_timer& timer, std::chrono::steady_clock::duration duration);

}  // namespace sextant::kube
