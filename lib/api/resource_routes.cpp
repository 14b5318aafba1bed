// A resource's list (a page of its shared list model, cut per caller) and one object's details.

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
#include "util/key_encoding.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

namespace {

// A resource's list model while current; else advances the shared render (whichever request
// runs next advances the same one) and gives null until it is done.
std::shared_ptr<const list_model> current_model(daemon_state& state, const section& owner, const resource_def& resource,
                                                const std::string& list_path, std::chrono::microseconds budget) {
  view_cache::model_slot& slot = state.views->model(list_path);
  if (!slot.model || !slot.model->stamp.current(state)) {
    if (!slot.rendering) {
      slot.rendering = std::make_shared<list_render>(state, owner, resource);
      state.views->count_list_render();
    }
    std::shared_ptr<list_render> rendering = slot.rendering;
    bool done = false;
    try {
      done = rendering->step(budget);
    } catch (...) {
      slot.rendering.reset();  // the next request starts afresh
      throw;
    }
    if (!done) {
      return nullptr;
    }
    if (slot.rendering == rendering) {
      slot.model = rendering->result();
      slot.rendering.reset();
    }
    return rendering->result();
  }
  slot.model->stamp.ask_again(state);
  return slot.model;
}

// Renders a page for about `budget`; once done, its view, stamped with what its model read.
std::optional<rendered_view> page_view(list_page_render& page, const list_model& model,
                                       std::chrono::microseconds budget) {
  if (!page.step(budget)) {
    return std::nullopt;
  }
  rendered_view view;
  view.body = std::make_shared<const std::string>(page.take());
  view.stamp = model.stamp;
  return view;
}

// One caller's list page: the model first (shared), then the caller's cut of it, or the whole
// cached page when the caller may read all of it. A cut is an answer of its own in the view
// cache, shared by every caller whose cut is the same (cut_identity): the caller of one
// namespace polling a list gets it from the cache, not cut again from the whole list each time.
class caller_list_work final : public answer_work {
 public:
  using model_step = std::function<std::shared_ptr<const list_model>(std::chrono::microseconds)>;
  using decide = std::function<caller_cut(const std::shared_ptr<const list_model>&)>;
  using page = std::function<std::unique_ptr<answer_work>()>;
  using cut_page =
      std::function<std::unique_ptr<answer_work>(std::shared_ptr<const list_model>, std::shared_ptr<const list_cut>)>;

  caller_list_work(model_step model, decide decide_cut, page whole, cut_page cut)
      : model_(std::move(model)), decide_(std::move(decide_cut)), whole_(std::move(whole)), cut_(std::move(cut)) {}

  bool step(std::chrono::microseconds budget) override {
    if (page_) {
      return page_->step(budget);
    }
    std::shared_ptr<const list_model> model = model_(budget);
    if (!model) {
      return false;
    }
    caller_cut decided = decide_(model);
    if (decided.refusal) {
      answer_ = std::move(decided.refusal);
      return true;
    }
    page_ = decided.cut ? cut_(std::move(model), std::move(decided.cut)) : whole_();
    return page_->step(budget);
  }
  api_response take() override { return page_ ? page_->take() : std::move(*answer_); }

 private:
  model_step model_;
  decide decide_;
  page whole_;
  cut_page cut_;
  std::optional<api_response> answer_;
  std::unique_ptr<answer_work> page_;
};

}  // namespace

std::unique_ptr<answer_work> api_router::list_route(const api_request& request, const parsed_target& target,
                                                    const section& owner, const resource_def& resource) {
  const char* route = "/api/v1/{section}/{resource}";
  auto fail = [route](api_response response) {
    response.route = route;
    return answer_now(std::move(response));
  };
  if (auto bad = only_params(target, {"namespace", "state", "queue", "labelSelector", "limit", "continue"})) {
    return fail(*bad);
  }
  if (auto it = target.query.find("namespace");
      it != target.query.end() && resource.namespaced && !valid_namespace(it->second)) {
    return fail(error_response(400, "BadRequest", "\"" + it->second + "\" is not a valid namespace name"));
  }
  const std::string list_path = "/api/v1/" + owner.id + "/" + resource.id;
  list_query query;
  if (auto error = parse_list_query(target, resource, list_path, query, state_.limits)) {
    return fail(error_response(400, "BadRequest", *error));
  }
  // Every caller's page, filtered or not, is cut from the one cached list model, a slice at a
  // time. Only the whole list is kept with the views; a page or a filtered subset is a cut, cheap
  // to make again and of URLs without end (view_cache.hpp).
  const cache_tier tier = query.paged || query.filters() ? cache_tier::cuts : cache_tier::views;
  auto whole_page = [this, target, gzip = accepts_gzip(request.accept_encoding), route, owner = &owner,
                     resource = &resource, query, list_path, tier]() {
    struct rendering {
      std::shared_ptr<const list_model> model;
      std::unique_ptr<list_page_render> page;
    };
    return cached(target, gzip, route, tier,
                  [state = &state_, owner, resource, query, list_path, at = std::make_shared<rendering>()](
                      std::chrono::microseconds budget) -> std::optional<rendered_view> {
                    if (!at->page) {
                      at->model = current_model(*state, *owner, *resource, list_path, budget);
                      if (!at->model) {
                        return std::nullopt;
                      }
                      at->page = std::make_unique<list_page_render>(at->model, query, list_path);
                    }
                    return page_view(*at->page, *at->model, budget);
                  });
  };
  if (!access_) {
    return whole_page();
  }
  // The kinds whose content the list shows (all of a computed page's): the caller must be let
  // list each of them. A computed page that names none is served to nobody.
  std::optional<api_response> refusal;
  if (resource.list_computed && resource.made_of.empty()) {
    refusal =
        error_response(403, "Forbidden", list_path + " declares no kinds it is made of, so it is served to no caller");
  } else {
    refusal = refused_made_of(resource.made_of, list_path);
  }
  if (refusal) {
    refusal->route = route;
    return answer_now(std::move(*refusal));
  }
  auto cut_page = [this, scope = answer_scope(target), route, query, list_path](std::shared_ptr<const list_model> model,
                                                                                std::shared_ptr<const list_cut> cut) {
    std::string key_scope =
        scope + key_builder().add("cut").add(cut->identity.empty() ? cut_identity(*cut) : cut->identity).take();
    struct rendering {
      std::shared_ptr<const list_model> model;
      std::shared_ptr<const list_cut> cut;  // the caller's, shared with its cut memo; copied only to render
      std::unique_ptr<list_page_render> page;
    };
    auto at = std::make_shared<rendering>(rendering{std::move(model), std::move(cut), nullptr});
    // Kept with the pages and filtered subsets: as many as there are distinct cuts.
    return cached_at(std::move(key_scope), false, route, cache_tier::cuts,
                     [at, query, list_path](std::chrono::microseconds budget) -> std::optional<rendered_view> {
                       if (!at->page) {
                         at->page = std::make_unique<list_page_render>(at->model, query, list_path, *at->cut);
                       }
                       return page_view(*at->page, *at->model, budget);
                     });
  };
  return std::make_unique<caller_list_work>(
      [state = &state_, owner = &owner, resource = &resource, list_path](std::chrono::microseconds budget) {
        return current_model(*state, *owner, *resource, list_path, budget);
      },
      [this, resource = &resource, query, route](const std::shared_ptr<const list_model>& model) {
        return caller_page(model, *resource, query, route);
      },
      std::move(whole_page), std::move(cut_page));
}

std::unique_ptr<answer_work> api_router::details_route(const api_request& request, const section& owner,
                                                       const resource_def& resource, const std::string& namespace_,
                                                       const std::string& name) {
  if (access_) {
    std::optional<api_response> refusal =
        refused(access_check::on_resource("get", resource.type.group, resource.plural, namespace_));
    if (!refusal) {
      // The kinds whose content the details show, its own resource's and its extensions'.
      std::vector<kind_key> made_of = resource.made_of;
      for (const section& other : state_.catalog.sections()) {
        for (const details_extension& extension : other.extensions) {
          if (extension.type == resource.type) {
            made_of.insert(made_of.end(), extension.made_of.begin(), extension.made_of.end());
          }
        }
      }
      refusal = refused_made_of(made_of, "/api/v1/" + owner.id + "/" + resource.id + "/...");
    }
    if (refusal) {
      refusal->route = "/api/v1/{section}/{resource}/...";
      return answer_now(std::move(*refusal));
    }
  }
  parsed_target target;
  target.segments = {"api", "v1", owner.id, resource.id};
  if (!namespace_.empty()) {
    target.segments.push_back(namespace_);
  }
  target.segments.push_back(name);
  return cached(target, gzip_cached(request), "/api/v1/{section}/{resource}/...", cache_tier::views,
                [state = &state_, owner = &owner, resource = &resource, namespace_,
                 name](std::chrono::microseconds) -> std::optional<rendered_view> {
                  return render_recorded(*state, true, [&](const view_context& context) {
                    object_ptr object = context.store.get(resource->type, namespace_, name);
                    if (!object) {
                      return error_response(404, "NotFound",
                                            resource->type.kind + " " + (namespace_.empty() ? "" : namespace_ + "/") +
                                                name + " is not in the cache");
                    }
                    return json_response(object_details(*state, *owner, *resource, *object, context));
                  });
                });
}

}  // namespace sextant
