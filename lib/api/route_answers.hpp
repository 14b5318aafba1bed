#pragma once
// What every route file of the router (api_router.cpp and the *_route(s).cpp beside it) answers
// with: parameter checks, the usual errors, an answer ready at once, a view rendered with what it
// read recorded, and the problem categories as the problems and settings routes show them.
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "api/api_router.hpp"
#include "api/view_cache.hpp"

namespace sextant {

// Rejects parameters a route does not take, by name: a typo should not silently widen a list.
template <typename Names>
std::optional<api_response> only_params(const parsed_target& target, const Names& allowed) {
  for (const auto& parameter : target.query) {
    const std::string& key = parameter.first;
    if (std::none_of(allowed.begin(), allowed.end(), [&key](const auto& name) { return key == name; })) {
      std::string list;
      for (const auto& name : allowed) {
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
std::optional<api_response> only_params(const parsed_target& target, std::initializer_list<const char*> allowed);

// 405 naming the methods the route takes (`allow`, also in the Allow header).
api_response method_not_allowed(const std::string& method, const std::string& allow);
// The problem categories as /api/v1/problems and /api/v1/settings/problems show them.
json categories_json(const problem_engine& engine);
// Why the problem list may lack problems: the enabled categories not evaluated, with what each
// waits for; empty when every enabled category has judged every object it needs.
std::string problems_incomplete_reason(const problem_engine& engine, const std::optional<std::string>& only);
// An answer that is ready at once.
std::unique_ptr<answer_work> answer_now(api_response response);
// Stands for an answer while a permission it needs is being asked; never served (app::answer
// asks, then runs the request again).
api_response undecided();
// Renders a view once, noting what it reads: `render` builds the answer from the context.
rendered_view render_recorded(daemon_state& state, bool shows_problems,
                              const std::function<api_response(const view_context&)>& render);

}  // namespace sextant
