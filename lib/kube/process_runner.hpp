#pragma once
// Runs a program without blocking the event loop: spawned with posix_spawn, its output read
// through non-blocking pipes, its exit collected by polling. For credential plugins, which
// print a few kilobytes and exit.
//
// Standard input is /dev/null: the daemon has no terminal to offer. A program still running
// at the deadline is killed.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "kube/asio.hpp"

namespace sextant::kube {

struct process_request {
  std::string program;  // looked up in $PATH unless it holds a '/'
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // set on top of the daemon's environment
  std::chrono::milliseconds timeout{60000};
  std::size_t max_output = 1 << 20;  // bytes kept of each of stdout and stderr
};

struct process_result {
  std::string spawn_error;  // set when the program could not be started
  int exit_code = -1;       // -1 when killed by a signal
  bool timed_out = false;
  std::string out;
  std::string err;

  bool ok() const { return spawn_error.empty() && !timed_out && exit_code == 0; }
};

net::awaitable<process_result> run_process(process_request request);

}  // namespace sextant::kube
