#include "util/file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sextant {

std::optional<std::string> read_file(const std::filesystem::path& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace sextant
