#pragma once
// Where the problem-category settings live, and whether a change made through the API lasts.
//
// Three homes, one chosen by configuration:
// - a mounted ConfigMap's key (--settings-configmap-file): the cluster's lasting settings,
//   re-read when the kubelet updates the mount. The daemon writes nothing to the cluster, so a
//   change made through the API applies to this replica only, until it restarts or the
//   ConfigMap changes; the answers say so.
// - a file (--settings-file): the API's changes are saved there and last as long as its volume.
// - memory: nothing lasts past the daemon.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "problems/problem_settings.hpp"
#include "util/json.hpp"

namespace sextant {

class settings_home {
 public:
  enum class place { memory, file, configmap };

  static settings_home in_memory() { return settings_home(place::memory, {}); }
  static settings_home in_file(std::filesystem::path path) { return settings_home(place::file, std::move(path)); }
  static settings_home in_configmap(std::filesystem::path path) {
    return settings_home(place::configmap, std::move(path));
  }

  place where() const { return where_; }
  const std::filesystem::path& path() const { return path_; }
  // Whether a change made through the API outlives the daemon.
  bool api_changes_last() const { return where_ == place::file; }

  // The settings the home holds now: empty when it holds none (no file yet, the ConfigMap has
  // no such key). An unreadable or malformed home is an error: the caller keeps what it has.
  settings_load_result read() const { return problem_settings_file(path_).load(); }
  // Saves the API's change where that lasts (a file); elsewhere there is nothing to write.
  // Returns an error message, or empty.
  std::string save(const std::map<std::string, bool>& enabled) const;

  // For a ConfigMap: whether the mounted text changed since the last call (first call: true).
  // The kubelet swaps the mount's symlink, so the content, not a file time, is compared.
  bool changed_since_last_look();
  // Makes the next look report a change (SIGHUP: read it again, whatever it holds).
  void forget_last_look() { last_text_.reset(); }

  // Why the home could not be read last time, or empty.
  const std::string& error() const { return error_; }
  void set_error(std::string error) { error_ = std::move(error); }

  // The answers' `storage` block: where, whether a change made here lasts, in words.
  json storage_json() const;

 private:
  settings_home(place where, std::filesystem::path path) : where_(where), path_(std::move(path)) {}

  place where_;
  std::filesystem::path path_;
  std::optional<std::string> last_text_;
  std::string error_;
};

}  // namespace sextant
