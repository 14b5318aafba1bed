#include "problems/problem_settings.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include "util/json.hpp"

namespace sextant {

settings_load_result problem_settings_file::load() const {
  settings_load_result result;
  std::error_code exists_error;
  if (!std::filesystem::exists(path_, exists_error)) {
    return result;
  }
  std::ifstream in(path_);
  if (!in) {
    result.error = "cannot read " + path_.string() + ": " + std::strerror(errno);
    return result;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    json document = json::parse(text.str());
    const json* categories = find(document, {"categories"});
    if (categories == nullptr || !categories->is_object()) {
      result.error = path_.string() + ": expected {\"categories\": {ID: {\"enabled\": BOOL}}}";
      return result;
    }
    for (const auto& [id, setting] : categories->items()) {
      auto on = get_bool(setting, {"enabled"});
      if (!on) {
        result.error = path_.string() + ": categories." + id + ".enabled is not a boolean";
        result.enabled.clear();
        return result;
      }
      result.enabled[id] = *on;
    }
  } catch (const json::exception& error) {
    result.error = path_.string() + ": " + error.what();
  }
  return result;
}

std::string problem_settings_file::save(const std::map<std::string, bool>& enabled) const {
  json document = {{"categories", json::object()}};
  for (const auto& [id, on] : enabled) {
    document["categories"][id] = json{{"enabled", on}};
  }
  const std::string text = document.dump(2) + "\n";
  const std::filesystem::path temporary = path_.string() + ".tmp";
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return "cannot write " + temporary.string() + ": " + std::strerror(errno);
  }
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      std::string error = "cannot write " + temporary.string() + ": " + std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      return error;
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string error = "cannot flush " + temporary.string() + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return error;
  }
  if (std::rename(temporary.c_str(), path_.c_str()) != 0) {
    std::string error = "cannot replace " + path_.string() + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return error;
  }
  return {};
}

}  // namespace sextant
