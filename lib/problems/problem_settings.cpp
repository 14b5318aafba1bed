#include "problems/problem_settings.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/file.hpp"
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
  return write_file_atomically(path_, text);
}

}  // namespace sextant
