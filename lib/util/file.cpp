#include "util/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

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

std::string write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.string() + ".tmp";
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
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string error = "cannot replace " + path.string() + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return error;
  }
  return {};
}

}  // namespace sextant
