#pragma once
// One way to start every long-lived task on the event loop (a watch, a poller, the accept loop,
// a connection, a problem pass): a task that throws is logged and counted
// (sextant_task_failures_total{task}), then started again after a backoff, or the daemon exits
// so that the kubelet restarts it, or (a connection, a request) nothing more. Asio's `detached`
// drops the exception: a reflector died silently and its kind stayed unwatched for good.
//
// The record lives in an Asio service of the io_context: the loop owns it, there is no global.
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace sextant {

enum class on_task_failure {
  restart,   // start it again after a backoff (1 s doubling to 60 s; back to 1 s after a minute's run)
  exit,      // ask the owner to exit with an error (the kubelet restarts the pod)
  log_only,  // a task of one connection or request: log and count, nothing to restart
};

class task_supervisor : public boost::asio::execution_context::service {
 public:
  using key_type = task_supervisor;
  static boost::asio::execution_context::id id;

  explicit task_supervisor(boost::asio::execution_context& context);

  // What to do when a task of policy `exit` fails; by default the failure is only logged.
  void on_fatal(std::function<void(const std::string& task)> handler) { on_fatal_ = std::move(handler); }
  // Failures so far by task name.
  const std::map<std::string, std::uint64_t>& failures() const { return failures_; }

  // Logs and counts a task's failure.
  void failed(const std::string& task, const std::exception_ptr& error, on_task_failure policy);
  void fatal(const std::string& task);

 private:
  void shutdown() override {}

  std::map<std::string, std::uint64_t> failures_;
  std::function<void(const std::string&)> on_fatal_;
};

task_supervisor& supervisor_of(boost::asio::execution_context& context);

namespace detail {

std::chrono::milliseconds restart_delay(std::chrono::milliseconds previous, std::chrono::steady_clock::duration ran);

template <typename Factory>
boost::asio::awaitable<void> keep_running(std::string task, Factory make) {
  auto executor = co_await boost::asio::this_coro::executor;
  task_supervisor& supervisor = supervisor_of(boost::asio::query(executor, boost::asio::execution::context));
  std::chrono::milliseconds delay{0};
  for (;;) {
    const auto started = std::chrono::steady_clock::now();
    std::exception_ptr failure;
    try {
      co_await make();
      co_return;
    } catch (...) {
      failure = std::current_exception();
    }
    supervisor.failed(task, failure, on_task_failure::restart);
    delay = restart_delay(delay, std::chrono::steady_clock::now() - started);
    boost::asio::steady_timer timer(executor, delay);
    co_await timer.async_wait(boost::asio::use_awaitable);
  }
}

// Runs `make()` inside a coroutine, so that a factory that throws before its first suspension
// is caught like any other failure of the task.
template <typename Factory>
boost::asio::awaitable<void> run_once(Factory make) {
  co_await make();
}

}  // namespace detail

// Runs the coroutine `make()` returns on `executor` under `task`'s name, as `policy` says.
// `make` is called again for each restart, so it must capture what outlives a failure.
template <typename Executor, typename Factory>
void spawn_supervised(const Executor& executor, std::string task, Factory make, on_task_failure policy) {
  if (policy == on_task_failure::restart) {
    boost::asio::co_spawn(executor, detail::keep_running(task, std::move(make)),
                          [executor, task](const std::exception_ptr& error) {
                            // Only the restart loop's own timer can throw here (cancelled at shutdown).
                            if (error) {
                              supervisor_of(boost::asio::query(executor, boost::asio::execution::context))
                                  .failed(task, error, on_task_failure::log_only);
                            }
                          });
    return;
  }
  boost::asio::co_spawn(
      executor, detail::run_once(std::move(make)), [executor, task, policy](const std::exception_ptr& error) {
        if (!error) {
          return;
        }
        task_supervisor& supervisor = supervisor_of(boost::asio::query(executor, boost::asio::execution::context));
        supervisor.failed(task, error, policy);
        if (policy == on_task_failure::exit) {
          supervisor.fatal(task);
        }
      });
}

// An io_context stands for its executor.
template <typename Factory>
void spawn_supervised(boost::asio::io_context& io, std::string task, Factory make, on_task_failure policy) {
  spawn_supervised(io.get_executor(), std::move(task), std::move(make), policy);
}

}  // namespace sextant
