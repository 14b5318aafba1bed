#include "api/api_router.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/resource_views.hpp"
#include "util/object_names.hpp"

namespace sextant {
namespace {

// Rejects parameters a route does not take, by name: a typo should not silently widen a list.
std::optional<api_response> only_params(const parsed_target& target, std::initializer_list<const char*> allowed) {
  for (const auto& parameter : target.query) {
    const std::string& key = parameter.first;
    if (std::none_of(allowed.begin(), allowed.end(), [&key](const char* name) { return key == name; })) {
      std::string list;
      for (const char* name : allowed) {
        list += (list.empty() ? "" : ", ") + std::string(name);
      }
      return error_response(
          400, "BadRequest",
          "unknown query parameter \"" + key + "\"" +
              (list.empty() ? std::string(" (this route takes none)") : " (this route takes " + list + ")"));
    }
  }
  return std::nullopt;
}

api_response method_not_allowed(const std::string& method, const std::string& allow) {
  api_response response =
      error_response(405, "MethodNotAllowed", "method " + method + " is not allowed here; use " + allow);
  response.headers.emplace_back("Allow", allow);
  return response;
}

json categories_json(const problem_engine& engine) {
  json out = json::array();
  for (const problem_category& category : engine.categories()) {
    category_status status = engine.status(category.id);
    json waiting_for = json::array();
    for (const kind_key& type : status.waiting_for) {
      waiting_for.push_back(type.to_string());
    }
    out.push_back({{"id", category.id},
                   {"title", category.title},
                   {"enabled", engine.enabled(category.id)},
                   {"enabledByDefault", category.enabled_by_default},
                   // The spec: none of these categories are given to AI agents.
                   {"agentVisible", false},
                   {"evaluated", status.evaluated},
                   {"waitingFor", std::move(waiting_for)}});
  }
  return out;
}

// Why the problem list may lack problems: the enabled categories not evaluated, with what each
// waits for; empty when every enabled category has judged every object it needs.
std::string problems_incomplete_reason(const problem_engine& engine, const std::optional<std::string>& only) {
  std::string reason;
  for (const problem_category& category : engine.categories()) {
    if (!engine.enabled(category.id) || (only && *only != category.id)) {
      continue;
    }
    category_status status = engine.status(category.id);
    if (!status.evaluated) {
      reason += (reason.empty() ? "Not judged yet: " : "; ") + category.id + " (" + status.reason + ")";
    }
  }
  return reason.empty() ? reason : reason + ".";
}

}  // namespace

api_response api_router::handle(const api_request& request) {
  parsed_target target = parse_target(request.target);
  api_response response;
  if (!target.error.empty()) {
    response = error_response(400, "BadRequest", target.error);
    response.route = "invalid";
  } else {
    try {
      response = dispatch(request, target);
    } catch (const std::exception& error) {
      spdlog::error("{} {}: {}", request.method, request.target, error.what());
      response =
          error_response(500, "InternalError", "the request could not be answered: " + std::string(error.what()));
    }
  }
  if (response.route.empty()) {
    response.route = "unmatched";
  }
  const bool cacheable = (request.method == "GET" || request.method == "HEAD") && response.status == 200;
  if (cacheable) {
    std::string etag = etag_of(response.body);
    response.headers.emplace_back("ETag", etag);
    if (!request.if_none_match.empty() && etag_matches(request.if_none_match, etag)) {
      response.status = 304;
      response.body.clear();
    }
  }
  state_.metrics.increment("sextant_http_requests_total",
                           {{"route", response.route}, {"code", std::to_string(response.status)}});
  return response;
}

api_response api_router::dispatch(const api_request& request, const parsed_target& target) {
  const auto& s = target.segments;
  const bool read = request.method == "GET" || request.method == "HEAD";
  auto read_only = [&](const char* route, auto&& answer) {
    api_response response = read ? answer() : method_not_allowed(request.method, "GET, HEAD");
    response.route = route;
    return response;
  };
  if (s.size() == 1 && s[0] == "healthz") {
    return read_only("/healthz", [&] {
      if (auto bad = only_params(target, {})) {
        return *bad;
      }
      api_response ok;
      ok.content_type = "text/plain; charset=utf-8";
      ok.body = "ok\n";
      return ok;
    });
  }
  if (s.size() == 1 && s[0] == "readyz") {
    return read_only("/readyz", [&] { return only_params(target, {}).value_or(readiness()); });
  }
  if (s.size() == 1 && s[0] == "metrics") {
    return read_only("/metrics", [&] {
      if (auto bad = only_params(target, {})) {
        return *bad;
      }
      api_response metrics;
      metrics.content_type = "text/plain; version=0.0.4; charset=utf-8";
      metrics.body = state_.metrics.render();
      return metrics;
    });
  }
  if (s.size() < 3 || s[0] != "api" || s[1] != "v1") {
    api_response response =
        error_response(404, "NotFound", "no route " + request.target.substr(0, 200) + " (the API lives under /api/v1)");
    return response;
  }
  if (s.size() == 3 && s[2] == "sections") {
    return read_only("/api/v1/sections", [&] { return sections(target); });
  }
  if (s.size() == 3 && s[2] == "problems") {
    return read_only("/api/v1/problems", [&] { return problems(target); });
  }
  if (s.size() == 4 && s[2] == "settings" && s[3] == "problems") {
    api_response response;
    if (read) {
      response = get_settings(target);
    } else if (request.method == "PUT") {
      response = put_settings(request, target);
    } else {
      response = method_not_allowed(request.method, "GET, HEAD, PUT");
    }
    response.route = "/api/v1/settings/problems";
    return response;
  }
  if (!read) {
    api_response response = method_not_allowed(request.method, "GET, HEAD");
    response.route = "/api/v1/{section}/...";
    return response;
  }
  return section_route(target);
}

api_response api_router::readiness() {
  std::vector<std::string> waiting = state_.unsynced ? state_.unsynced() : std::vector<std::string>{};
  if (waiting.empty()) {
    api_response ok;
    ok.content_type = "text/plain; charset=utf-8";
    ok.body = "ok\n";
    // Ready, since nothing more will come of them; but what they hold is not known.
    std::vector<std::string> forbidden = state_.forbidden ? state_.forbidden() : std::vector<std::string>{};
    if (!forbidden.empty()) {
      std::string names;
      for (const std::string& name : forbidden) {
        names += (names.empty() ? "" : ", ") + name;
      }
      ok.body += "forbidden, so not read: " + names + "\n";
    }
    return ok;
  }
  std::string names;
  for (const std::string& name : waiting) {
    names += (names.empty() ? "" : ", ") + name;
  }
  api_response response = error_response(503, "Unavailable", "not synced yet: " + names);
  return response;
}

api_response api_router::sections(const parsed_target& target) {
  if (auto bad = only_params(target, {})) {
    return *bad;
  }
  json out = json::array();
  for (const section& s : state_.catalog.sections()) {
    if (!state_.catalog.listed(s, state_.served)) {
      continue;
    }
    std::vector<std::string> served_versions = state_.served.group_versions(s.group);
    // The version the daemon reads: the first of its preferences the cluster serves.
    std::string read_version;
    for (const std::string& preferred : s.version_preference) {
      if (std::find(served_versions.begin(), served_versions.end(), preferred) != served_versions.end()) {
        read_version = preferred;
        break;
      }
    }
    if (read_version.empty() && !served_versions.empty()) {
      read_version = served_versions.front();
    }
    // Versions in the section's preference order, then any others the cluster serves.
    std::vector<std::string> versions;
    for (const std::string& preferred : s.version_preference) {
      if (std::find(served_versions.begin(), served_versions.end(), preferred) != served_versions.end()) {
        versions.push_back(preferred);
      }
    }
    for (const std::string& version : served_versions) {
      if (std::find(versions.begin(), versions.end(), version) == versions.end()) {
        versions.push_back(version);
      }
    }
    json resources = json::array();
    for (const resource_def& r : s.resources) {
      resources.push_back({{"id", r.id},
                           {"title", r.title},
                           {"kind", r.type.kind.empty() ? json(nullptr) : json(r.type.kind)},
                           {"namespaced", r.namespaced},
                           {"served", state_.catalog.served(s, r, state_.served)}});
    }
    out.push_back({{"id", s.id},
                   {"title", s.title},
                   {"group", s.group},
                   {"versions", versions},
                   {"readVersion", read_version.empty() ? json(nullptr) : json(read_version)},
                   {"resources", std::move(resources)}});
  }
  return json_response({{"sections", std::move(out)}});
}

api_response api_router::problems(const parsed_target& target) {
  if (auto bad = only_params(target, {"category"})) {
    return *bad;
  }
  std::optional<std::string> category;
  if (auto it = target.query.find("category"); it != target.query.end()) {
    if (!state_.problems.has_category(it->second)) {
      return error_response(400, "BadRequest", "unknown problem category \"" + it->second + "\"");
    }
    category = it->second;
  }
  json list = json::array();
  for (const problem& p : state_.problems.current(category)) {
    list.push_back(p.to_json());
  }
  std::string incomplete = problems_incomplete_reason(state_.problems, category);
  return json_response({{"problems", std::move(list)},
                        {"incomplete", !incomplete.empty()},
                        {"incompleteReason", incomplete.empty() ? json(nullptr) : json(incomplete)},
                        {"categories", categories_json(state_.problems)}});
}

api_response api_router::get_settings(const parsed_target& target) {
  if (auto bad = only_params(target, {})) {
    return *bad;
  }
  json categories = json::object();
  for (const problem_category& category : state_.problems.categories()) {
    categories[category.id] = {{"enabled", state_.problems.enabled(category.id)}};
  }
  return json_response({{"categories", std::move(categories)}});
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
  if (state_.settings_file) {
    std::string error = state_.settings_file->save(next);
    if (!error.empty()) {
      spdlog::error("saving problem settings: {}", error);
      return error_response(503, "Unavailable", "the settings could not be saved, so none were changed: " + error);
    }
  }
  for (const auto& [id, on] : changes) {
    state_.problems.set_enabled(id, on);
  }
  if (state_.on_settings_changed) {
    state_.on_settings_changed();
  }
  return get_settings(parsed_target{});
}

api_response api_router::section_route(const parsed_target& target) {
  const auto& s = target.segments;
  const section* owner = state_.catalog.find_section(s[2]);
  if (owner == nullptr) {
    api_response response = error_response(404, "NotFound", "no section \"" + s[2] + "\"");
    response.route = "/api/v1/{section}";
    return response;
  }
  view_context context = state_.context();
  if (s.size() >= 4) {
    for (const sextant::section_route& route : owner->routes) {
      if (route.segment == s[3]) {
        std::vector<std::string> rest(s.begin() + 4, s.end());
        if (state_.demand) {
          for (const kind_key& needed : route.reads_on_demand) {
            state_.demand(needed);
          }
          if (route.reads_on_demand_of) {
            for (const kind_key& needed : route.reads_on_demand_of(rest)) {
              state_.demand(needed);
            }
          }
        }
        route_answer answer = route.handle(rest, context);
        api_response response = answer.status >= 400
                                    ? error_response(answer.status, answer.reason.empty() ? "NotFound" : answer.reason,
                                                     string_or(answer.body, {"message"}, "not found"))
                                    : json_response(answer.body, answer.status);
        response.route = "/api/v1/" + owner->id + "/" + route.segment + "/...";
        return response;
      }
    }
  }
  if (!state_.catalog.listed(*owner, state_.served)) {
    api_response response =
        error_response(404, "NotServed", "the cluster does not serve " + owner->title + " (" + owner->group + ")");
    response.route = "/api/v1/{section}";
    return response;
  }
  if (s.size() == 3) {
    api_response response = error_response(404, "NotFound", "name a resource: /api/v1/" + owner->id + "/{resource}");
    response.route = "/api/v1/{section}";
    return response;
  }
  resource_match match = state_.catalog.find_resource(owner->id, s[3]);
  if (match.resource == nullptr) {
    api_response response =
        error_response(404, "NotFound", "section " + owner->id + " has no resource \"" + s[3] + "\"");
    response.route = "/api/v1/{section}/{resource}";
    return response;
  }
  const resource_def& resource = *match.resource;
  if (!state_.catalog.served(*owner, resource, state_.served)) {
    api_response response = error_response(
        404, "NotServed", "the cluster does not serve " + resource.type.kind + " (" + resource.type.group + ")");
    response.route = "/api/v1/{section}/{resource}";
    return response;
  }
  if (!resource.on_demand_category.empty() && state_.demand) {
    state_.demand(resource.type);
  }
  if (s.size() == 4) {
    api_response response;
    if (auto bad = only_params(target, {"namespace"})) {
      response = *bad;
    } else {
      std::optional<std::string> namespace_;
      if (auto it = target.query.find("namespace"); it != target.query.end()) {
        if (!resource.namespaced) {
          response = error_response(400, "BadRequest", resource.id + " are not namespaced: drop ?namespace=");
        } else if (!valid_namespace(it->second)) {
          response = error_response(400, "BadRequest", "\"" + it->second + "\" is not a valid namespace name");
        }
        namespace_ = it->second;
      }
      if (response.status == 200) {
        response = json_response(resource_list(state_, *owner, resource, namespace_, context));
      }
    }
    response.route = "/api/v1/{section}/{resource}";
    return response;
  }
  api_response response;
  response.route = "/api/v1/{section}/{resource}/...";
  if (auto bad = only_params(target, {})) {
    response = *bad;
    response.route = "/api/v1/{section}/{resource}/...";
    return response;
  }
  if (resource.type.kind.empty()) {
    response = error_response(404, "NotFound", resource.id + " is a computed page: it has a list, not details");
  } else if (resource.namespaced && s.size() != 6) {
    response = error_response(
        400, "BadRequest",
        resource.id + " are namespaced: use /api/v1/" + owner->id + "/" + resource.id + "/{namespace}/{name}");
  } else if (!resource.namespaced && s.size() != 5) {
    response =
        error_response(400, "BadRequest",
                       resource.id + " are cluster-scoped: use /api/v1/" + owner->id + "/" + resource.id + "/{name}");
  } else {
    const std::string namespace_ = resource.namespaced ? s[4] : std::string();
    const std::string& name = resource.namespaced ? s[5] : s[4];
    if (resource.namespaced && !valid_namespace(namespace_)) {
      response = error_response(400, "BadRequest", "\"" + namespace_ + "\" is not a valid namespace name");
    } else if (!valid_name(name)) {
      response = error_response(400, "BadRequest", "\"" + name + "\" is not a valid object name");
    } else {
      if (state_.demand) {
        for (const kind_key& needed : resource.reads_on_demand) {
          state_.demand(needed);
        }
        for (const section& other : state_.catalog.sections()) {
          for (const details_extension& extension : other.extensions) {
            if (extension.type == resource.type) {
              for (const kind_key& needed : extension.reads_on_demand) {
                state_.demand(needed);
              }
            }
          }
        }
      }
      object_ptr object = state_.store.get(resource.type, namespace_, name);
      if (!object) {
        response = error_response(
            404, "NotFound",
            resource.type.kind + " " + (namespace_.empty() ? "" : namespace_ + "/") + name + " is not in the cache");
      } else {
        response = json_response(object_details(state_, *owner, resource, *object, context));
      }
    }
  }
  response.route = "/api/v1/{section}/{resource}/...";
  return response;
}

}  // namespace sextant
