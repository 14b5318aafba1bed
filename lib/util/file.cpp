#include "util/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sextant {
namespace {

class open_file {
 public:
  explicit open_file(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~open_file() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  open_file(const open_file&) = delete;
  open_file& operator=(const open_file&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::optional<std::string> read_file(const std::filesystem::path& path, std::string& error, std::uint64_t max_bytes) {
  const std::string name = path.string();
  open_file file(path);
  if (file.fd() < 0) {
    error = "cannot read " + name + ": " + std::strerror(errno);
    return std::nullopt;
  }
  struct stat status {};
  if (::fstat(file.fd(), &status) != 0) {
    error = "cannot read " + name + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(status.st_mode)) {
    error = "cannot read " + name + ": it is a directory";
    return std::nullopt;
  }
  const std::string too_large = name + " is larger than " + std::to_string(max_bytes) + " bytes";
  std::string text;
  if (S_ISREG(status.st_mode)) {
    if (static_cast<std::uint64_t>(status.st_size) > max_bytes) {
      error = too_large;
      return std::nullopt;
    }
    text.reserve(static_cast<std::size_t>(status.st_size));
  }
  // Read to the end whatever the size said (a file may grow; a device or pipe has none), but
  // never past the limit: /dev/zero ends here, not in an endless read.
  char chunk[64 * 1024];
  while (true) {
    const ssize_t got = ::read(file.fd(), chunk, sizeof chunk);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      error = "cannot read " + name + ": " + std::strerror(errno);
      return std::nullopt;
    }
    if (got == 0) {
      return text;
    }
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) {
      error = too_large;
      return std::nullopt;
    }
    text.append(chunk, static_cast<std::size_t>(got));
  }
}

}  // namespace sextant
