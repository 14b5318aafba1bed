#include "util/supervised_spawn.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace sextant {

boost::asio::execution_context::id task_supervisor::id;

task_supervisor::task_supervisor(boost::asio::execution_context& context)
    : boost::asio::execution_context::service(context) {}

void task_supervisor::failed(const std::string& task, const std::exception_ptr& error, on_task_failure policy) {
  ++failures_[task];
  std::string what = "an exception that is not a std::exception";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& thrown) {
    what = thrown.what();
  } catch (...) {
  }
  const char* next = policy == on_task_failure::restart ? "; starting it again"
                     : policy == on_task_failure::exit  ? "; the daemon exits"
                                                        : "";
  spdlog::error("task {} failed: {}{}", task, what, next);
}

void task_supervisor::fatal(const std::string& task) {
  if (on_fatal_) {
    on_fatal_(task);
  }
}

task_supervisor& supervisor_of(boost::asio::execution_context& context) {
  return boost::asio::use_service<task_supervisor>(context);
}

namespace detail {

std::chrono::milliseconds restart_delay(std::chrono::milliseconds previous, std::chrono::steady_clock::duration ran) {
  constexpr std::chrono::milliseconds first{1000};
  constexpr std::chrono::milliseconds longest{60000};
  if (previous.count() == 0 || ran >= std::chrono::minutes(1)) {
    return first;  // a task that ran a while failed afresh, not in a loop
  }
  return std::min(longest, previous * 2);
}

}  // namespace detail
}  // namespace sextant
