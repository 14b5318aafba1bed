#pragma once
// Which files a snapshot is: every .yaml, .yml and .json file below a directory, in path order.
// What cannot be walked is said, with the reason, and the walk goes on: an unreadable
// subdirectory, a symbolic link that loops or points nowhere, a link to a directory (not
// followed, so no link can make the walk circle).
#include <filesystem>
#include <string>
#include <vector>

namespace sextant {

struct load_problem {
  std::string path;
  int line = 0;  // 1-based; 0 when unknown
  std::string message;
};

struct snapshot_file_list {
  std::vector<std::filesystem::path> files;
  std::vector<load_problem> errors;    // a file or directory that could not be read
  std::vector<load_problem> warnings;  // something left out on purpose
};

// `root` is a directory or a single file (read whatever its name).
snapshot_file_list snapshot_files(const std::filesystem::path& root);

}  // namespace sextant
