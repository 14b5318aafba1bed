#pragma once
// Starts a program of the harness (the test cluster, the fault proxy, sextantd) with its output
// and errors going to one log file, as each test keeps them beside its cluster.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace sextant::integration {

// The child's pid; throws std::runtime_error naming the program when it cannot be started.
pid_t spawn_logged(std::vector<std::string> args, const std::filesystem::path& log);

}  // namespace sextant::integration
