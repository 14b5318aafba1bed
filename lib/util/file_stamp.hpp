#pragma once
// What tells a file's new content from its old without reading it: modification time, size and
// inode. A file replaced by rename (as the kubelet swaps a projected volume's files) gets a new
// inode even when its time and size happen to match.
#include <cstdint>
#include <optional>
#include <string>

namespace sextant {

struct file_stamp {
  std::int64_t mtime_ns = 0;
  std::int64_t size = -1;
  std::uint64_t inode = 0;
  bool operator==(const file_stamp&) const = default;
};

// The stamp of the file at `path` (symbolic links followed); nullopt when it cannot be read,
// with errno set.
std::optional<file_stamp> stamp_of(const std::string& path);

}  // namespace sextant
