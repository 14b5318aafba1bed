// Every long-lived task is spawned supervised (issue 32): a failure is logged and counted under
// the task's name, then the task is started again after a backoff, the owner is told to exit, or
// (a connection's task) nothing more. Asio's `detached` dropped such exceptions silently.
#include "util/supervised_spawn.hpp"

#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <catch2/catch.hpp>

#include "util/scope_guard.hpp"

using namespace sextant;
namespace net = boost::asio;

TEST_CASE("a task that throws is counted and started again after a backoff", "[supervision]") {
  net::io_context io;
  int runs = 0;
  spawn_supervised(
      io, "flaky-watch",
      [&runs]() -> net::awaitable<void> {
        if (++runs < 3) {
          throw std::runtime_error("the watch broke");
        }
        co_return;
      },
      on_task_failure::restart);
  io.run_for(std::chrono::seconds(10));
  CHECK(runs == 3);  // failed twice, started again each time, then ended normally
  CHECK(supervisor_of(io).failures().at("flaky-watch") == 2);
}

TEST_CASE("a task that must not stop asks its owner to exit", "[supervision]") {
  net::io_context io;
  std::string fatal;
  supervisor_of(io).on_fatal([&fatal](const std::string& task) { fatal = task; });
  spawn_supervised(
      io, "accept", []() -> net::awaitable<void> { throw std::runtime_error("no more sockets"); },
      on_task_failure::exit);
  io.run();
  CHECK(fatal == "accept");
  CHECK(supervisor_of(io).failures().at("accept") == 1);
}

TEST_CASE("a connection's task is logged and counted once, never restarted", "[supervision]") {
  net::io_context io;
  int runs = 0;
  spawn_supervised(
      io, "one-request",
      [&runs]() -> net::awaitable<void> {
        ++runs;
        throw std::logic_error("a handler's bug");
      },
      on_task_failure::log_only);
  io.run();
  CHECK(runs == 1);
  CHECK(supervisor_of(io).failures().at("one-request") == 1);
}

TEST_CASE("restart delays double from 1 s to a minute, and start over after a minute's run", "[supervision]") {
  using std::chrono::milliseconds;
  auto ran = std::chrono::seconds(1);
  CHECK(detail::restart_delay(milliseconds(0), ran) == milliseconds(1000));
  CHECK(detail::restart_delay(milliseconds(1000), ran) == milliseconds(2000));
  CHECK(detail::restart_delay(milliseconds(32000), ran) == milliseconds(60000));
  CHECK(detail::restart_delay(milliseconds(60000), ran) == milliseconds(60000));
  CHECK(detail::restart_delay(milliseconds(60000), std::chrono::minutes(2)) == milliseconds(1000));
}

TEST_CASE("per-pass state is undone when the pass throws, not when its loop goes away under it", "[supervision]") {
  bool running = false;
  auto pass = [&running](bool fail) -> net::awaitable<void> {
    running = true;
    undo_on_exception guard([&running] { running = false; });
    co_await net::post(co_await net::this_coro::executor, net::use_awaitable);
    if (fail) {
      throw std::runtime_error("a rule's bug");
    }
    guard.disarm();
    running = false;
  };
  {
    net::io_context io;
    spawn_supervised(
        io, "problem-pass", [&] { return pass(true); }, on_task_failure::log_only);
    io.run();
    CHECK_FALSE(running);  // a later pass can start
    CHECK(supervisor_of(io).failures().at("problem-pass") == 1);
  }
  {
    auto io = std::make_unique<net::io_context>();
    spawn_supervised(
        *io, "problem-pass", [&] { return pass(false); }, on_task_failure::log_only);
    io->run_one();  // the pass began and waits on the loop
    CHECK(running);
    io.reset();  // the loop is destroyed with the pass unfinished: no undo runs on a dead owner
    CHECK(running);
  }
}
