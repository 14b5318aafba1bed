// /api/v1/problems: rendered once per change, and once per change for each distinct caller cut.

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
#include "auth/cut_memo.hpp"
#include "util/key_encoding.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"
#include "util/sha256.hpp"

namespace sextant {

namespace {

// The (kind, namespace) of an object a problem is about: what a caller must be let list to see it.
using problem_scope = std::pair<kind_key, std::string>;

// The problems' answer. `shown`: the scopes whose problems a caller sees (null: every caller's
// answer, which says nothing of filtering).
rendered_view render_problems(daemon_state& state, const std::optional<std::string>& category,
                              const std::shared_ptr<const std::set<problem_scope>>& shown) {
  return render_recorded(state, true, [&](const view_context&) {
    json list = json::array();
    bool filtered = false;
    for (const problem& p : state.problems.current(category)) {
      if (!shown || shown->contains(problem_scope(p.type, p.namespace_))) {
        list.push_back(p.to_json());
      } else {
        filtered = true;
      }
    }
    std::string incomplete = problems_incomplete_reason(state.problems, category);
    json answer = {{"problems", std::move(list)}};
    if (shown) {
      answer["filtered"] = filtered;
    }
    answer["incomplete"] = !incomplete.empty();
    answer["incompleteReason"] = incomplete.empty() ? json(nullptr) : json(incomplete);
    answer["categories"] = categories_json(state.problems);
    return json_response(answer);
  });
}

}  // namespace

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
  if (!access_) {
    return cached(target, gzip_cached(request), route, cache_tier::views,
                  [state = &state_, category](std::chrono::microseconds) -> std::optional<rendered_view> {
                    return render_problems(*state, category, nullptr);
                  });
  }
  // The caller's cut: the scopes of the current problems it may list, one question each. Its
  // answer is kept under them (not under the caller), so that callers who may list the same
  // scopes share one rendering, and a caller polling gets it from the cache. A problem of a
  // scope not decided here (one that came since) is left out: a cut shows only what was asked.
  // The cut itself is kept in the caller's memo until the problems or its decisions change.
  const std::string what = key_builder()
                               .add("problems")
                               .add(category ? "one" : "all")
                               .add(category.value_or(std::string()))
                               .add(std::to_string(state_.problems.generation()))
                               .take();
  problems_cut cut;
  const kept_cut* kept = cuts_->recalled(what, nullptr);
  if (const auto* found = kept != nullptr ? std::get_if<problems_cut>(kept) : nullptr) {
    cut = *found;
  } else {
    auto shown = std::make_shared<std::set<problem_scope>>();
    key_builder identity;
    for (const problem_scope& scope : state_.problems.scopes(category)) {
      std::optional<bool> visible = cuts_->may_list(scope.first, scope.second);
      if (visible && *visible) {
        shown->insert(scope);
        identity.add(scope.first.group).add(scope.first.kind).add(scope.second);
      }
    }
    if (!access_->decided()) {
      return fail(undecided());
    }
    cut = problems_cut{std::move(shown), sha256_hex(identity.text())};
    cuts_->remember(what, nullptr, cut);
  }
  return cached_at(answer_scope(target) + key_builder().add("cut").add(cut.identity).take(), false, route,
                   cache_tier::cuts,
                   [state = &state_, category, shown = std::move(cut.shown)](std::chrono::microseconds)
                       -> std::optional<rendered_view> { return render_problems(*state, category, shown); });
}

}  // namespace sextant
