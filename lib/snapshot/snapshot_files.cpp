#include "snapshot/snapshot_files.hpp"

#include <algorithm>

namespace sextant {
namespace {

namespace fs = std::filesystem;

// Deeper than any snapshot a tool writes; a bound, so that no tree is walked without end.
constexpr int deepest_directory = 64;

bool snapshot_extension(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".yaml" || extension == ".yml" || extension == ".json";
}

// A FIFO or device named like a snapshot file would block or never end: only regular files.
void add_file(const fs::path& path, const fs::file_status& status, snapshot_file_list& out) {
  if (!snapshot_extension(path)) {
    return;
  }
  if (fs::is_regular_file(status)) {
    out.files.push_back(path);
  } else {
    out.errors.push_back({path.string(), 0, "not read: not a regular file"});
  }
}

void walk(const fs::path& directory, int depth, snapshot_file_list& out) {
  if (depth > deepest_directory) {
    out.warnings.push_back({directory.string(), 0, "not read: more than 64 directories deep"});
    return;
  }
  std::error_code error;
  fs::directory_iterator it(directory, error);
  if (error) {
    out.errors.push_back({directory.string(), 0, "directory cannot be read: " + error.message()});
    return;
  }
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) {
      break;
    }
    const fs::path& path = it->path();
    std::error_code link_error;
    const fs::file_status own = it->symlink_status(link_error);
    if (fs::is_symlink(own)) {
      std::error_code target_error;
      const fs::file_status target = fs::status(path, target_error);
      if (target_error) {
        // A link named like a snapshot file was meant to be one: say why it is not read.
        if (snapshot_extension(path)) {
          out.errors.push_back({path.string(), 0, "cannot be read: " + target_error.message()});
        }
        continue;
      }
      if (fs::is_directory(target)) {
        out.warnings.push_back({path.string(), 0, "a link to a directory: not followed"});
        continue;
      }
      add_file(path, target, out);
      continue;
    }
    if (fs::is_directory(own)) {
      walk(path, depth + 1, out);
    } else {
      add_file(path, own, out);
    }
  }
  if (error) {
    out.errors.push_back({directory.string(), 0, "directory cannot be read to its end: " + error.message()});
  }
}

}  // namespace

snapshot_file_list snapshot_files(const fs::path& root) {
  snapshot_file_list out;
  std::error_code error;
  const fs::file_status status = fs::status(root, error);
  if (error) {
    out.errors.push_back({root.string(), 0, "cannot be read: " + error.message()});
  } else if (fs::is_directory(status)) {
    walk(root, 0, out);
  } else if (fs::is_regular_file(status)) {
    out.files.push_back(root);
  } else {
    out.errors.push_back({root.string(), 0, "is neither a directory nor a regular file"});
  }
  std::sort(out.files.begin(), out.files.end());
  return out;
}

}  // namespace sextant
