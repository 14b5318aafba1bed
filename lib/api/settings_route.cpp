// /api/v1/settings/problems: the categories and whether each is on (GET), and a change stored
// before it is applied (PUT), which the cluster source then follows.

#include "api/api_router.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/answer_key.hpp"
#include "api/gzip_body.hpp"
#include "api/list_query.hpp"
#include "api/resource_views.hpp"
#include "api/route_answers.hpp"
#include "api/view_cache.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

api_response api_router::get_settings(const parsed_target& target) {
  if (auto bad = only_params(target, {})) {
    return *bad;
  }
  json categories = json::object();
  for (const problem_category& category : state_.problems.categories()) {
    categories[category.id] = {{"enabled", state_.problems.enabled(category.id)}};
  }
  return json_response({{"categories", std::move(categories)}, {"storage", state_.settings.storage_json()}});
}

api_response api_router::put_settings(const api_request& request, const parsed_target& target) {
  if (auto bad = only_params(target, {})) {
    return *bad;
  }
  json body;
  try {
    body = json::parse(request.body);
  } catch (const json::exception& error) {
    return error_response(400, "BadRequest", std::string("the body is not JSON: ") + error.what());
  }
  const json* categories = find(body, {"categories"});
  if (categories == nullptr || !categories->is_object()) {
    return error_response(400, "BadRequest", R"(expected {"categories": {"<id>": {"enabled": true|false}}})");
  }
  // Check everything before changing anything: a bad entry changes nothing.
  std::vector<std::pair<std::string, bool>> changes;
  for (const auto& [id, setting] : categories->items()) {
    if (!state_.problems.has_category(id)) {
      return error_response(400, "BadRequest", "unknown problem category \"" + id + "\"");
    }
    auto enabled = get_bool(setting, {"enabled"});
    if (!enabled || setting.size() != 1) {
      return error_response(400, "BadRequest", "categories." + id + R"( must be {"enabled": true|false})");
    }
    changes.emplace_back(id, *enabled);
  }
  std::map<std::string, bool> next;
  for (const problem_category& category : state_.problems.categories()) {
    next[category.id] = state_.problems.enabled(category.id);
  }
  for (const auto& [id, on] : changes) {
    next[id] = on;
  }
  if (std::string error = state_.settings.save(next); !error.empty()) {
    spdlog::error("saving problem settings: {}", error);
    return error_response(503, "Unavailable", "the settings could not be saved, so none were changed: " + error);
  }
  for (const auto& [id, on] : changes) {
    state_.problems.set_enabled(id, on);
  }
  state_.source->settings_changed();
  return get_settings(parsed_target{});
}

}  // namespace sextant
