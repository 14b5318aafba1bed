#include "kube/process_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <map>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

extern char** environ;

namespace sextant::kube {
namespace {

using namespace net::experimental::awaitable_operators;

net::awaitable<void> read_all(net::posix::stream_descriptor& pipe, std::string& into, std::size_t max) {
  std::array<char, 4096> buffer{};
  for (;;) {
    auto [ec, n] = co_await pipe.async_read_some(net::buffer(buffer), use_tuple);
    if (n > 0 && into.size() < max) {
      into.append(buffer.data(), std::min(n, max - into.size()));
    }
    if (ec) {
      co_return;  // EOF, or cancelled at the deadline
    }
  }
}

net::awaitable<void> wait_until(net::steady_timer& timer) {
  co_await timer.async_wait(use_tuple);
}

// The environment for the child: ours, with `extra` set over it.
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    auto eq = text.find('=');
    if (eq != std::string_view::npos) {
      variables[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
    }
  }
  for (const auto& [name, value] : extra) {
    variables[name] = value;
  }
  std::vector<std::string> out;
  out.reserve(variables.size());
  for (const auto& [name, value] : variables) {
    out.push_back(name + "=" + value);
  }
  return out;
}

// Owns the two pipe ends until they are handed to Asio or closed.
struct pipe_pair {
  int read_end = -1;
  int write_end = -1;
  ~pipe_pair() {
    if (read_end >= 0) {
      ::close(read_end);
    }
    if (write_end >= 0) {
      ::close(write_end);
    }
  }
  bool open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      return false;
    }
    read_end = fds[0];
    write_end = fds[1];
    return true;
  }
  int release_read() { return std::exchange(read_end, -1); }
  void close_write() {
    ::close(write_end);
    write_end = -1;
  }
};

}  // namespace

net::awaitable<process_result> run_process(process_request request) {
  auto executor = co_await net::this_coro::executor;
  process_result result;
  pipe_pair out_pipe;
  pipe_pair err_pipe;
  if (!out_pipe.open() || !err_pipe.open()) {
    result.spawn_error = std::string("cannot create pipes: ") + std::strerror(errno);
    co_return result;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe.write_end, 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe.write_end, 2);

  std::vector<std::string> argv_text;
  argv_text.push_back(request.program);
  argv_text.insert(argv_text.end(), request.args.begin(), request.args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  std::vector<std::string> env_text = child_environment(request.env);
  std::vector<char*> envp;
  for (std::string& variable : env_text) {
    envp.push_back(variable.data());
  }
  envp.push_back(nullptr);

  pid_t pid = -1;
  const bool has_path = request.program.find('/') != std::string::npos;
  int rc = has_path ? ::posix_spawn(&pid, request.program.c_str(), &actions, nullptr, argv.data(), envp.data())
                    : ::posix_spawnp(&pid, request.program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    result.spawn_error = "cannot run " + request.program + ": " + std::strerror(rc);
    co_return result;
  }
  out_pipe.close_write();
  err_pipe.close_write();

  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  {
    net::posix::stream_descriptor out(executor, out_pipe.release_read());
    net::posix::stream_descriptor err(executor, err_pipe.release_read());
    net::steady_timer timer(executor, deadline);
    auto outcome =
        co_await ((read_all(out, result.out, request.max_output) && read_all(err, result.err, request.max_output)) ||
                  wait_until(timer));
    result.timed_out = outcome.index() == 1;
  }

  // Collect the exit status. A program normally exits as its pipes close; one that lingers
  // past the deadline (or that hit it) is killed.
  net::steady_timer poll(executor);
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      break;
    }
    if (done < 0) {
      // ECHILD: the child was reaped for us (SIGCHLD ignored); its exit code is lost, so its
      // output has to speak for it.
      result.exit_code = 0;
      break;
    }
    if (result.timed_out || std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    co_await sleep_for(poll, std::chrono::milliseconds(5));
  }
  co_return result;
}

}  // namespace sextant::kube
