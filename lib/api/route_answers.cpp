#include "api/route_answers.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/answer_key.hpp"
#include "api/gzip_body.hpp"
#include "api/list_query.hpp"
#include "api/resource_views.hpp"
#include "api/view_cache.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

namespace {

// An answer that is ready at once.
class ready_work final : public answer_work {
 public:
  explicit ready_work(api_response response) : response_(std::move(response)) {}
  bool step(std::chrono::microseconds) override { return true; }
  api_response take() override { return std::move(response_); }

 private:
  api_response response_;
};

}  // namespace

std::optional<api_response> only_params(const parsed_target& target, std::initializer_list<const char*> allowed) {
  return only_params<std::initializer_list<const char*>>(target, allowed);
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

std::unique_ptr<answer_work> answer_now(api_response response) {
  return std::make_unique<ready_work>(std::move(response));
}

// Stands for an answer while a permission it needs is being asked; never served (app::answer
// asks, then runs the request again).
api_response undecided() {
  return error_response(503, "Unavailable", "the caller's permissions are still being checked");
}

// Renders a view once, noting what it reads: `render` builds the answer from the context.
rendered_view render_recorded(daemon_state& state, bool shows_problems,
                              const std::function<api_response(const view_context&)>& render) {
  view_reads reads;
  reads.problems = shows_problems;
  const time_point at = render_instant(state);
  view_context context = state.context();
  context.now = at;
  context.now.record_into(&reads);
  context.reads = &reads;
  context.mark_joins = state.per_caller_views;
  state.store.record_reads(&reads);
  api_response response;
  try {
    response = render(context);
  } catch (...) {
    state.store.record_reads(nullptr);
    throw;
  }
  state.store.record_reads(nullptr);
  rendered_view view;
  view.status = response.status;
  view.content_type = response.content_type;
  if (context.mark_joins) {
    stripped_view stripped = strip_join_marks(response.body);
    view.body = std::make_shared<const std::string>(std::move(stripped.text));
    view.joins = std::make_shared<const std::vector<join_span>>(std::move(stripped.joins));
  } else {
    view.body = std::make_shared<const std::string>(std::move(response.body));
  }
  view.stamp = view_stamp(reads, state, at);
  view.stamp.ask_again(state);
  return view;
}

}  // namespace sextant
