// /api/v1/problems: rendered once per change, then cut per caller (caller_problems).

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

std::unique_ptr<answer_work> api_router::problems(const api_request& request, const parsed_target& target) {
  const std::string route = "/api/v1/problems";
  auto fail = [&route](api_response response) {
    response.route = route;
    return answer_now(std::move(response));
  };
  if (auto bad = only_params(target, {"category"})) {
    return fail(*bad);
  }
  std::optional<std::string> category;
  if (auto it = target.query.find("category"); it != target.query.end()) {
    if (!state_.problems.has_category(it->second)) {
      return fail(error_response(400, "BadRequest", "unknown problem category \"" + it->second + "\""));
    }
    category = it->second;
  }
  if (access_) {
    // Cut from the engine's current list, which is what the cached answer is rendered from.
    return fail(caller_problems(category));
  }
  return cached(target, gzip_cached(request), route, cache_tier::views,
                [state = &state_, category](std::chrono::microseconds) -> std::optional<rendered_view> {
                  return render_recorded(*state, true, [&](const view_context&) {
                    json list = json::array();
                    for (const problem& p : state->problems.current(category)) {
                      list.push_back(p.to_json());
                    }
                    std::string incomplete = problems_incomplete_reason(state->problems, category);
                    return json_response({{"problems", std::move(list)},
                                          {"incomplete", !incomplete.empty()},
                                          {"incompleteReason", incomplete.empty() ? json(nullptr) : json(incomplete)},
                                          {"categories", categories_json(state->problems)}});
                  });
                });
}

api_response api_router::caller_problems(const std::optional<std::string>& category) {
  json list = json::array();
  bool filtered = false;
  for (const problem& p : state_.problems.current(category)) {
    std::optional<bool> visible = cuts_->may_list(p.type, p.namespace_);
    if (visible && *visible) {
      list.push_back(p.to_json());
    } else if (visible) {
      filtered = true;
    }
  }
  if (!access_->decided()) {
    return undecided();
  }
  std::string incomplete = problems_incomplete_reason(state_.problems, category);
  return json_response({{"problems", std::move(list)},
                        {"filtered", filtered},
                        {"incomplete", !incomplete.empty()},
                        {"incompleteReason", incomplete.empty() ? json(nullptr) : json(incomplete)},
                        {"categories", categories_json(state_.problems)}});
}

}  // namespace sextant
