// /api/v1/{section}/...: the section and resource a route names, and a section's own routes.

#include "api/api_router.hpp"

#include <algorithm>
#include <set>
#include <span>

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

std::unique_ptr<answer_work> api_router::section_route(const api_request& request, const parsed_target& target,
                                                       const route_match& matched) {
  // The segments after /api/v1/{section}: {resource}/{namespace}/{name}/{stream}, or a route's own.
  const std::span<const std::string> rest = matched.rest;
  auto fail = [](api_response response, const char* route) {
    response.route = route;
    return answer_now(std::move(response));
  };
  const section* owner = state_.catalog.find_section(matched.section);
  if (owner == nullptr) {
    return fail(error_response(404, "NotFound", "no section \"" + matched.section + "\""), "/api/v1/{section}");
  }
  if (!rest.empty()) {
    for (const sextant::section_route& route : owner->routes) {
      if (route.segment == rest[0]) {
        return own_route(request, target, *owner, route, {rest.begin() + 1, rest.end()});
      }
    }
  }
  if (!state_.catalog.listed(*owner, state_.served)) {
    return fail(
        error_response(404, "NotServed", "the cluster does not serve " + owner->title + " (" + owner->group + ")"),
        "/api/v1/{section}");
  }
  if (rest.empty()) {
    return fail(error_response(404, "NotFound", "name a resource: /api/v1/" + owner->id + "/{resource}"),
                "/api/v1/{section}");
  }
  resource_match match = state_.catalog.find_resource(owner->id, rest[0]);
  if (match.resource == nullptr) {
    return fail(error_response(404, "NotFound", "section " + owner->id + " has no resource \"" + rest[0] + "\""),
                "/api/v1/{section}/{resource}");
  }
  const resource_def& resource = *match.resource;
  if (!state_.catalog.served(*owner, resource, state_.served)) {
    return fail(error_response(404, "NotServed",
                               "the cluster does not serve " + resource.type.kind + " (" + resource.type.group + ")"),
                "/api/v1/{section}/{resource}");
  }
  if (rest.size() == 4 && resource.namespaced) {
    for (const streaming_route& stream : owner->streams) {
      if (stream.resource == resource.id && stream.segment == rest[3]) {
        return fail(stream_route(request, target, *owner, stream), "/api/v1/{section}/{resource}/.../{stream}");
      }
    }
  }
  if (rest.size() == 1) {
    return list_route(request, target, *owner, resource);
  }
  const char* details = "/api/v1/{section}/{resource}/...";
  if (auto bad = only_params(target, {})) {
    return fail(*bad, details);
  }
  if (resource.type.kind.empty()) {
    return fail(error_response(404, "NotFound", resource.id + " is a computed page: it has a list, not details"),
                details);
  }
  if (resource.namespaced && rest.size() != 3) {
    return fail(error_response(400, "BadRequest",
                               resource.id + " are namespaced: use /api/v1/" + owner->id + "/" + resource.id +
                                   "/{namespace}/{name}"),
                details);
  }
  if (!resource.namespaced && rest.size() != 2) {
    return fail(
        error_response(400, "BadRequest",
                       resource.id + " are cluster-scoped: use /api/v1/" + owner->id + "/" + resource.id + "/{name}"),
        details);
  }
  const std::string namespace_ = resource.namespaced ? rest[1] : std::string();
  const std::string& name = resource.namespaced ? rest[2] : rest[1];
  if (resource.namespaced && !valid_namespace(namespace_)) {
    return fail(error_response(400, "BadRequest", "\"" + namespace_ + "\" is not a valid namespace name"), details);
  }
  if (!valid_name(name)) {
    return fail(error_response(400, "BadRequest", "\"" + name + "\" is not a valid object name"), details);
  }
  return details_route(request, *owner, resource, namespace_, name);
}

// A section's own route (/api/v1/{section}/{segment}/...): its answer is cached like every view,
// and serving it asks for what it read on demand (view_stamp::ask_again).
std::unique_ptr<answer_work> api_router::own_route(const api_request& request, const parsed_target& target,
                                                   const section& owner, const sextant::section_route& route,
                                                   std::vector<std::string> rest) {
  const std::string route_name = "/api/v1/" + owner.id + "/" + route.segment + "/...";
  if (access_) {
    std::optional<api_response> refusal;
    if (!route.permission_of) {
      refusal = error_response(403, "Forbidden", route_name + " declares no permission, so it is served to no caller");
    } else if (std::optional<access_check> needed = route.permission_of(rest)) {
      refusal = refused(*needed);
    }
    if (!refusal) {
      refusal = refused_made_of(route.made_of, route_name);
    }
    if (refusal) {
      refusal->route = route_name;
      return answer_now(std::move(*refusal));
    }
  }
  return cached(target, gzip_cached(request), route_name, cache_tier::views,
                [state = &state_, handle = route.handle, segment = route.segment, owner_id = owner.id,
                 rest = std::move(rest)](std::chrono::microseconds) -> std::optional<rendered_view> {
                  return render_recorded(*state, false, [&](const view_context& context) {
                    route_answer answer;
                    try {
                      answer = handle(rest, context);
                    } catch (const std::exception& error) {
                      state->interpreter_failed(owner_id, segment, "route", error.what());
                      throw;  // answered as every failed request is: 500 with the reason
                    }
                    // A section's own answer passes the URI net as every view does (util/masking).
                    masking::mask_view_strings(answer.body);
                    return answer.status >= 400
                               ? error_response(answer.status, answer.reason.empty() ? "NotFound" : answer.reason,
                                                string_or(answer.body, {"message"}, "not found"))
                               : json_response(answer.body, answer.status);
                  });
                });
}

}  // namespace sextant
