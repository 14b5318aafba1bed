#include "problems/settings_home.hpp"

#include "util/file.hpp"

namespace sextant {

std::string settings_home::save(const std::map<std::string, bool>& enabled) const {
  if (where_ != place::file) {
    return {};
  }
  return problem_settings_file(path_).save(enabled);
}

bool settings_home::changed_since_last_look() {
  // A missing or unreadable file reads as empty here; read() then tells which it was.
  std::string error;
  std::string text = read_file(path_, error).value_or(std::string());
  if (last_text_ && *last_text_ == text) {
    return false;
  }
  last_text_ = std::move(text);
  return true;
}

json settings_home::storage_json() const {
  json out = {{"home", "memory"}, {"path", nullptr}, {"changesLast", false}};
  switch (where_) {
    case place::memory:
      out["message"] =
          "Settings are kept in memory only and are lost when the daemon stops; configure "
          "--settings-configmap-file (a mounted ConfigMap) or --settings-file to keep them.";
      break;
    case place::file:
      out["home"] = "file";
      out["path"] = path_.string();
      out["changesLast"] = true;
      out["message"] = "Changes are saved to " + path_.string() +
                       " and last as long as that file does: an emptyDir volume is lost when the Pod is "
                       "replaced, and each replica has its own.";
      break;
    case place::configmap:
      out["home"] = "configmap";
      out["path"] = path_.string();
      out["message"] = "Settings come from the ConfigMap mounted at " + path_.string() +
                       " and are re-read when it changes. A change made here applies to this replica only, "
                       "until the daemon restarts or the ConfigMap changes; to make it last, set it in the "
                       "ConfigMap.";
      break;
  }
  out["error"] = error_.empty() ? json(nullptr) : json(error_);
  return out;
}

}  // namespace sextant
