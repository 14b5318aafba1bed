#pragma once
// The on/off settings of problem categories, persisted to a JSON file.
//
// Writes are atomic (a temporary file in the same directory, flushed, then renamed over the
// old one), so a crash never leaves half a file. A file that cannot be read or parsed is
// reported and left untouched: the defaults apply until someone changes a setting.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace sextant {

struct settings_load_result {
  std::map<std::string, bool> enabled;  // category -> on
  std::string error;                    // why the file could not be used, if it could not
};

class problem_settings_file {
 public:
  explicit problem_settings_file(std::filesystem::path path) : path_(std::move(path)) {}

  // Reads the file; a missing file is no error (nothing was saved yet).
  settings_load_result load() const;
  // Saves atomically; returns an error message, or empty on success.
  std::string save(const std::map<std::string, bool>& enabled) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace sextant
