#include "support/upstream_files.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace sextant::testing {
namespace {

struct run_result {
  int status = -1;
  std::string output;  // stdout and stderr, in order
};

std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

run_result run_fetch(const std::string& argument) {
  const std::string command =
      quoted((std::filesystem::path(SEXTANT_SOURCE_DIR) / "tests" / "upstream" / "fetch.sh").string()) + " " +
      quoted(argument) + " 2>&1";
  run_result result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("cannot run " + command);
  }
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    result.output.append(buffer.data(), n);
  }
  result.status = ::pclose(pipe);
  return result;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) {
      out.push_back(line);
    }
  }
  return out;
}

}  // namespace

std::filesystem::path upstream_files(const std::string& name) {
  run_result fetched = run_fetch(name);
  std::vector<std::string> lines = lines_of(fetched.output);
  // fetch.sh prints the folder last; what it says on stderr comes before.
  if (fetched.status != 0 || lines.empty() || !std::filesystem::is_directory(lines.back())) {
    throw std::runtime_error("tests/upstream/fetch.sh " + name + " failed:\n" + fetched.output);
  }
  return lines.back();
}

std::vector<std::string> upstream_file_sets(const std::string& prefix) {
  run_result listed = run_fetch("--list");
  if (listed.status != 0) {
    throw std::runtime_error("tests/upstream/fetch.sh --list failed:\n" + listed.output);
  }
  std::vector<std::string> out;
  for (const std::string& name : lines_of(listed.output)) {
    if (name.starts_with(prefix)) {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace sextant::testing
