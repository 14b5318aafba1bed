#include "util/file_stamp.hpp"

#include <sys/stat.h>

namespace sextant {

std::optional<file_stamp> stamp_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return file_stamp{static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec,
                    static_cast<std::int64_t>(info.st_size), static_cast<std::uint64_t>(info.st_ino)};
}

}  // namespace sextant
