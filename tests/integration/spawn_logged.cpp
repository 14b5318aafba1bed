#include "spawn_logged.hpp"

#include <fcntl.h>
#include <spawn.h>

#include <cstring>
#include <stdexcept>

extern char** environ;

namespace sextant::integration {

pid_t spawn_logged(std::vector<std::string> args, const std::filesystem::path& log) {
  std::vector<char*> argv;
  for (std::string& arg : args) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
  }
  return pid;
}

}  // namespace sextant::integration
