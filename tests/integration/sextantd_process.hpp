#pragma once
// sextantd as a child process for integration tests, on a free loopback port, with its output
// in a log file; stopped with SIGTERM at the end.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "util/json.hpp"

namespace sextant::integration {

class sextantd_process {
 public:
  // `args` are sextantd's own (`--kubeconfig K`, `--snapshot DIR`); --listen is added.
  sextantd_process(std::vector<std::string> args, const std::filesystem::path& log);
  ~sextantd_process();
  sextantd_process(const sextantd_process&) = delete;
  sextantd_process& operator=(const sextantd_process&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Until /readyz answers 200, or `limit` passes.
  bool wait_ready(std::chrono::seconds limit) const;
  json get(const std::string& path) const;
  // For what only the process tells: its memory and open files under /proc (the soak samples them).
  pid_t pid() const { return pid_; }

 private:
  unsigned short port_;
  pid_t pid_ = -1;
};

// Where two answers differ, one line per leaf: "/queue/message: \"a\" vs \"b\"".
std::vector<std::string> differences(const json& a, const json& b);

// Asks the live daemon for `path` until it answers `expected` (watches settle, kinds watched on
// demand sync once asked for, problems are evaluated after a burst) or 10 s pass, then says
// what still differs.
std::vector<std::string> compare_page(const std::string& live_url, const std::string& path, const json& expected);

// The two daemons a section's live test compares: one watching the test cluster with
// `kubeconfig`, one serving a snapshot dumped from it, their logs beside each other in `logs`.
struct live_and_snapshot {
  live_and_snapshot(const std::string& kubeconfig, const std::filesystem::path& snapshot,
                    const std::filesystem::path& logs);
  // Both answer /readyz (the live one within 60 s, the snapshot within 30 s).
  bool ready() const;
  // Where the live answers to each page differ from the snapshot's, each line naming its page.
  std::vector<std::string> compare(const std::vector<std::string>& pages) const;

  sextantd_process live;
  sextantd_process files;
};

}  // namespace sextant::integration
