// Per-caller cuts (--auth=kubernetes) as the router answers them: auth/caller_cuts decides what
// one caller may see; these turn its decisions into answers (a 403, or the placeholder while a
// decision is not known).

#include "api/api_router.hpp"

#include "api/route_answers.hpp"

namespace sextant {

namespace {

api_response refusal_answer(const cut_refusal& refusal) {
  return refusal.undecided ? undecided() : error_response(403, "Forbidden", refusal.message);
}

std::optional<api_response> refusal_answer(const std::optional<cut_refusal>& refusal) {
  return refusal ? std::optional<api_response>(refusal_answer(*refusal)) : std::nullopt;
}

}  // namespace

std::optional<api_response> api_router::refused(const access_check& check) {
  return refusal_answer(cuts_->refused(check));
}

std::optional<api_response> api_router::refused_made_of(const std::vector<kind_key>& made_of, const std::string& what) {
  return refusal_answer(cuts_->refused_made_of(made_of, what));
}

caller_cut api_router::caller_page(const std::shared_ptr<const list_model>& model, const resource_def& resource,
                                   const list_query& query, const std::string& route) {
  list_decision decided = cuts_->list_page(
      model->runs, listed_kind{resource.type, resource.plural, resource.namespaced}, query.namespace_, model);
  if (decided.refusal) {
    api_response refusal = refusal_answer(*decided.refusal);
    if (decided.refusal_of_scope) {
      refusal.route = route;
    }
    return {std::move(refusal), nullptr};
  }
  return {std::nullopt, std::move(decided.cut)};
}

std::string api_router::caller_metrics(std::string text) {
  metrics_cut cut(*cuts_);
  for (const problem& p : state_.problems.current()) {
    cut.named(p.category, p.type, p.namespace_, p.name);
  }
  return cut.apply(std::move(text));
}

}  // namespace sextant
