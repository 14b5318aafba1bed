#pragma once
// Runs the real sextantd binary for end-to-end tests, and talks HTTP to it.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sextant::testing {

struct http_reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// One HTTP/1.1 request on a fresh connection to 127.0.0.1:port.
http_reply http_call(unsigned short port, const std::string& method, const std::string& target,
                     const std::map<std::string, std::string>& headers = {}, const std::string& body = {});

// Runs sextantd with `args` (a shell command line) to its exit, at most `seconds`: its exit code
// and what it wrote to stdout and stderr.
std::pair<int, std::string> run_to_exit(const std::string& args, int seconds = 30);

// A free TCP port on loopback, as the kernel hands them out.
unsigned short free_port();

class daemon_process {
 public:
  // Starts sextantd with `args` (plus --listen 127.0.0.1:<free port>) and waits until it answers
  // /healthz, or fails the test with its log.
  explicit daemon_process(std::vector<std::string> args);
  // Starts it without waiting for it to serve (a test that signals it during its start-up).
  struct no_wait {};
  daemon_process(std::vector<std::string> args, no_wait);
  ~daemon_process();

  // Waits until its log holds `text`; false after `timeout` or when it exited.
  bool wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const;
  bool running() const;
  // Sends a signal without waiting for anything; false when it is not running.
  bool signal(int number) const;

  unsigned short port() const { return port_; }
  // Sends a signal and waits for the exit; returns the exit code (or 128+signal), -1 on timeout.
  int stop(int signal, std::chrono::milliseconds timeout);
  std::string log() const;

 private:
  void launch(std::vector<std::string> args);

  pid_t pid_ = -1;
  unsigned short port_ = 0;
  std::string log_path_;
};

}  // namespace sextant::testing
