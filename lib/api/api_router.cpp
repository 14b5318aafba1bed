#include "api/api_router.hpp"

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

api_response undecided();  // below, with the other answers of access control

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

// An answer that is ready at once.
class ready_work final : public answer_work {
 public:
  explicit ready_work(api_response response) : response_(std::move(response)) {}
  bool step(std::chrono::microseconds) override { return true; }
  api_response take() override { return std::move(response_); }

 private:
  api_response response_;
};

std::unique_ptr<answer_work> ready(api_response response) {
  return std::make_unique<ready_work>(std::move(response));
}

api_response from_cache(const cached_answer& answer, const std::string& route) {
  api_response response;
  response.status = answer.status;
  response.content_type = answer.content_type;
  response.shared_body = answer.body;
  response.route = route;
  response.gzipped = answer.gzip;
  if (answer.status == 200) {
    response.etag = answer.etag;
  }
  return response;
}

using hider = std::function<std::optional<std::string>(const join_span&)>;

// A cached answer as one caller gets it: the shared bytes, or, when it joins objects the caller
// may not read (`hidden` gives a sentence), a copy with those entries replaced.
api_response caller_copy(const cached_answer& answer, const std::string& route, const hider& hidden) {
  api_response response = from_cache(answer, route);
  if (!hidden || !answer.joins || !answer.body) {
    return response;
  }
  const bool cut = std::any_of(answer.joins->begin(), answer.joins->end(),
                               [&hidden](const join_span& span) { return hidden(span).has_value(); });
  if (cut) {
    // Never gzipped: answers cut per caller are cached uncompressed (api_router::gzip_cached).
    response.body = redact_joins(*answer.body, *answer.joins, hidden);
    response.shared_body.reset();
    response.etag.clear();
    response.gzipped = false;
  }
  return response;
}

// An answer from the view cache, or from the shared job rendering it.
class cached_work final : public answer_work {
 public:
  // `hidden`: the caller's cut of joined entries; empty when every caller sees everything.
  cached_work(std::shared_ptr<answer_job> job, std::string route, log_throttle& failures_logged, hider hidden = {})
      : job_(std::move(job)),
        route_(std::move(route)),
        failures_logged_(failures_logged),
        hidden_(std::move(hidden)) {}
  bool step(std::chrono::microseconds budget) override {
    try {
      return job_->step(budget);
    } catch (const std::exception& error) {
      // A render that throws answers as every failed request does: 500 with the reason.
      if (std::uint64_t held_back = 0; failures_logged_.allow(std::chrono::steady_clock::now(), held_back)) {
        spdlog::error("{}: {}{}", route_, error.what(), log_throttle::held_back_note(held_back));
      }
      failed_ = error_response(500, "InternalError", "the request could not be answered: " + std::string(error.what()));
      return true;
    }
  }
  api_response take() override {
    if (failed_) {
      failed_->route = route_;
      return std::move(*failed_);
    }
    return caller_copy(job_->result(), route_, hidden_);
  }

 private:
  std::shared_ptr<answer_job> job_;
  std::string route_;
  log_throttle& failures_logged_;
  hider hidden_;
  std::optional<api_response> failed_;
};

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
  return view;
}

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
  return slot.model;
}

// One caller's list page: the model first (shared), then the caller's cut of it (rendered in
// slices, as every page is), or the whole cached page when the caller may read all of it.
class caller_list_work final : public answer_work {
 public:
  using model_step = std::function<std::shared_ptr<const list_model>(std::chrono::microseconds)>;
  using cut = std::function<caller_cut(const list_model&)>;
  using page = std::function<std::unique_ptr<answer_work>()>;

  caller_list_work(model_step model, cut cut_page, page whole, list_query query, std::string list_path,
                   std::string route)
      : model_(std::move(model)),
        cut_(std::move(cut_page)),
        whole_(std::move(whole)),
        query_(std::move(query)),
        list_path_(std::move(list_path)),
        route_(std::move(route)) {}

  bool step(std::chrono::microseconds budget) override {
    if (whole_page_) {
      return whole_page_->step(budget);
    }
    if (cut_page_) {
      return cut_page_->step(budget);
    }
    std::shared_ptr<const list_model> model = model_(budget);
    if (!model) {
      return false;
    }
    caller_cut decided = cut_(*model);
    if (decided.refusal) {
      answer_ = std::move(decided.refusal);
      return true;
    }
    if (decided.cut) {
      cut_page_ = std::make_unique<list_page_render>(std::move(model), query_, list_path_, std::move(*decided.cut));
      return cut_page_->step(budget);
    }
    whole_page_ = whole_();
    return whole_page_->step(budget);
  }
  api_response take() override {
    if (whole_page_) {
      return whole_page_->take();
    }
    if (cut_page_) {
      api_response response;
      response.body = cut_page_->take();
      response.route = route_;
      return response;
    }
    return std::move(*answer_);
  }

 private:
  model_step model_;
  cut cut_;
  page whole_;
  list_query query_;
  std::string list_path_;
  std::string route_;
  std::optional<api_response> answer_;
  std::unique_ptr<list_page_render> cut_page_;
  std::unique_ptr<answer_work> whole_page_;
};

}  // namespace

api_response api_router::handle(const api_request& request) {
  work pending = begin(request);
  while (!pending->step(std::chrono::hours(24))) {
  }
  api_response response = complete(request, pending->take());
  if (response.shared_body) {
    response.body = *response.shared_body;  // callers of the whole answer read `body`
  }
  return response;
}

std::unique_ptr<answer_work> api_router::begin(const api_request& request) {
  parsed_target target = parse_target(request.target);
  if (!target.error.empty()) {
    api_response response = error_response(400, "BadRequest", target.error);
    response.route = "invalid";
    return ready(std::move(response));
  }
  try {
    return dispatch(request, target);
  } catch (const std::exception& error) {
    if (std::uint64_t held_back = 0;
        state_.request_failures_logged.allow(std::chrono::steady_clock::now(), held_back)) {
      spdlog::error("{} {}: {}{}", request.method, request.target.substr(0, 200), error.what(),
                    log_throttle::held_back_note(held_back));
    }
    return ready(
        error_response(500, "InternalError", "the request could not be answered: " + std::string(error.what())));
  }
}

api_response api_router::complete(const api_request& request, api_response response) {
  if (response.route.empty()) {
    response.route = "unmatched";
  }
  // A streamed answer is neither hashed nor compressed: its body is not known yet.
  const bool cacheable =
      !response.stream && (request.method == "GET" || request.method == "HEAD") && response.status == 200;
  if (cacheable) {
    // Small answers that are not cached views: hash them, and gzip them when asked and worth it.
    if (!response.shared_body && !response.gzipped && response.body.size() >= 1024 &&
        accepts_gzip(request.accept_encoding)) {
      response.etag = etag_of(response.body);
      response.etag.insert(response.etag.size() - 1, "-gz");
      response.body = gzip_all(response.body);
      response.gzipped = true;
    }
    if (response.etag.empty()) {
      response.etag = etag_of(std::string(response.bytes()));
    }
    response.headers.emplace_back("ETag", response.etag);
    if (!request.if_none_match.empty() && etag_matches(request.if_none_match, response.etag)) {
      response.status = 304;
      response.body.clear();
      response.shared_body.reset();
    }
  }
  if (response.gzipped && response.status == 200) {
    response.headers.emplace_back("Content-Encoding", "gzip");
  }
  if (request.method == "GET" || request.method == "HEAD") {
    // Cut per caller: a shared cache must not serve one caller's answer to another.
    response.headers.emplace_back("Vary", access_ ? "Accept-Encoding, Authorization" : "Accept-Encoding");
  }
  state_.metrics.increment("sextant_http_requests_total",
                           {{"route", response.route}, {"code", std::to_string(response.status)}});
  return response;
}

std::unique_ptr<answer_work> api_router::dispatch(const api_request& request, const parsed_target& target) {
  const auto& s = target.segments;
  const bool read = request.method == "GET" || request.method == "HEAD";
  auto read_only = [&](const char* route, auto&& answer) {
    api_response response = read ? answer() : method_not_allowed(request.method, "GET, HEAD");
    response.route = route;
    return ready(std::move(response));
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
  if (s.size() == 3 && s[0] == ".well-known" && s[1] == "sextant" && s[2] == "ca.crt") {
    return read_only("/.well-known/sextant/ca.crt", [&] {
      if (auto bad = only_params(target, {})) {
        return *bad;
      }
      if (state_.tls_ca_pem.empty()) {
        return error_response(404, "NotFound", "this daemon serves no certificate of its own making (--tls=self-signed)");
      }
      api_response ca;
      ca.content_type = "application/x-pem-file";
      ca.body = state_.tls_ca_pem;
      return ca;
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
      if (access_) {
        if (auto refusal = refused(access_check::on_path("get", state_.metrics_permission_path))) {
          return *refusal;
        }
      }
      api_response metrics;
      metrics.content_type = "text/plain; version=0.0.4; charset=utf-8";
      metrics.body = access_ ? caller_metrics(state_.metrics.render()) : state_.metrics.render();
      return metrics;
    });
  }
  if (s.size() < 3 || s[0] != "api" || s[1] != "v1") {
    return ready(error_response(404, "NotFound",
                                "no route " + request.target.substr(0, 200) + " (the API lives under /api/v1)"));
  }
  if (s.size() == 3 && s[2] == "sections") {
    return read_only("/api/v1/sections", [&] { return sections(target); });
  }
  if (s.size() == 3 && s[2] == "problems") {
    if (!read) {
      return read_only("/api/v1/problems", [] { return api_response{}; });
    }
    return problems(request, target);
  }
  if (s.size() == 4 && s[2] == "settings" && s[3] == "problems") {
    api_response response;
    if (read) {
      response = get_settings(target);
    } else if (request.method == "PUT") {
      std::optional<api_response> refusal =
          access_ ? refused(access_check::on_path("put", settings_permission_path)) : std::nullopt;
      response = refusal ? *refusal : put_settings(request, target);
    } else {
      response = method_not_allowed(request.method, "GET, HEAD, PUT");
    }
    response.route = "/api/v1/settings/problems";
    return ready(std::move(response));
  }
  if (!read) {
    api_response response = method_not_allowed(request.method, "GET, HEAD");
    response.route = "/api/v1/{section}/...";
    return ready(std::move(response));
  }
  return section_route(request, target);
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
      if (!r.shown) {
        continue;
      }
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

std::unique_ptr<answer_work> api_router::problems(const api_request& request, const parsed_target& target) {
  const std::string route = "/api/v1/problems";
  auto fail = [&route](api_response response) {
    response.route = route;
    return ready(std::move(response));
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

std::unique_ptr<answer_work> api_router::cached(
    const parsed_target& target, bool gzip, const std::string& route, cache_tier tier,
    std::function<std::optional<rendered_view>(std::chrono::microseconds)> render) {
  const std::string scope = answer_scope(target);
  const std::string key = answer_key(scope, gzip);
  view_cache& cache = *state_.views;
  hider hidden;
  if (access_) {
    hidden = [this](const join_span& span) { return hidden_for(span); };
  }
  if (const cached_answer* hit = cache.find(key, state_)) {
    hit->stamp.ask_documents(state_);
    return ready(caller_copy(*hit, route, hidden));
  }
  std::shared_ptr<answer_job> job =
      cache.job(key, [&] { return std::make_shared<answer_job>(cache, key, scope, gzip, tier, std::move(render)); });
  return std::make_unique<cached_work>(std::move(job), route, state_.request_failures_logged, std::move(hidden));
}

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
  if (state_.on_settings_changed) {
    state_.on_settings_changed();
  }
  return get_settings(parsed_target{});
}

std::unique_ptr<answer_work> api_router::section_route(const api_request& request, const parsed_target& target) {
  const auto& s = target.segments;
  auto fail = [](api_response response, const char* route) {
    response.route = route;
    return ready(std::move(response));
  };
  const section* owner = state_.catalog.find_section(s[2]);
  if (owner == nullptr) {
    return fail(error_response(404, "NotFound", "no section \"" + s[2] + "\""), "/api/v1/{section}");
  }
  if (s.size() >= 4) {
    for (const sextant::section_route& route : owner->routes) {
      if (route.segment == s[3]) {
        return own_route(request, target, *owner, route);
      }
    }
  }
  if (!state_.catalog.listed(*owner, state_.served)) {
    return fail(
        error_response(404, "NotServed", "the cluster does not serve " + owner->title + " (" + owner->group + ")"),
        "/api/v1/{section}");
  }
  if (s.size() == 3) {
    return fail(error_response(404, "NotFound", "name a resource: /api/v1/" + owner->id + "/{resource}"),
                "/api/v1/{section}");
  }
  resource_match match = state_.catalog.find_resource(owner->id, s[3]);
  if (match.resource == nullptr) {
    return fail(error_response(404, "NotFound", "section " + owner->id + " has no resource \"" + s[3] + "\""),
                "/api/v1/{section}/{resource}");
  }
  const resource_def& resource = *match.resource;
  if (!state_.catalog.served(*owner, resource, state_.served)) {
    return fail(error_response(404, "NotServed",
                               "the cluster does not serve " + resource.type.kind + " (" + resource.type.group + ")"),
                "/api/v1/{section}/{resource}");
  }
  if (!resource.on_demand_category.empty() && state_.demand) {
    state_.demand(resource.type);
  }
  if (s.size() == 7 && resource.namespaced) {
    for (const streaming_route& stream : owner->streams) {
      if (stream.resource == resource.id && stream.segment == s[6]) {
        return fail(stream_route(request, target, *owner, stream), "/api/v1/{section}/{resource}/.../{stream}");
      }
    }
  }
  if (s.size() == 4) {
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
  if (resource.namespaced && s.size() != 6) {
    return fail(error_response(400, "BadRequest",
                               resource.id + " are namespaced: use /api/v1/" + owner->id + "/" + resource.id +
                                   "/{namespace}/{name}"),
                details);
  }
  if (!resource.namespaced && s.size() != 5) {
    return fail(
        error_response(400, "BadRequest",
                       resource.id + " are cluster-scoped: use /api/v1/" + owner->id + "/" + resource.id + "/{name}"),
        details);
  }
  const std::string namespace_ = resource.namespaced ? s[4] : std::string();
  const std::string& name = resource.namespaced ? s[5] : s[4];
  if (resource.namespaced && !valid_namespace(namespace_)) {
    return fail(error_response(400, "BadRequest", "\"" + namespace_ + "\" is not a valid namespace name"), details);
  }
  if (!valid_name(name)) {
    return fail(error_response(400, "BadRequest", "\"" + name + "\" is not a valid object name"), details);
  }
  return details_route(request, *owner, resource, namespace_, name);
}

// A streaming route (/api/v1/{section}/{resource}/{namespace}/{name}/{segment}): the section plans
// from the cache what to stream, and the answer's body is the daemon's streamer running that plan.
// Never cached: its body is read from the cluster as it is sent.
api_response api_router::stream_route(const api_request& request, const parsed_target& target, const section& owner,
                                      const streaming_route& stream) {
  if (request.method != "GET") {
    return method_not_allowed(request.method, "GET");
  }
  if (auto bad = only_params(target, stream.parameters)) {
    return *bad;
  }
  const std::string& namespace_ = target.segments[4];
  const std::string& name = target.segments[5];
  if (!valid_namespace(namespace_)) {
    return error_response(400, "BadRequest", "\"" + namespace_ + "\" is not a valid namespace name");
  }
  if (!valid_name(name)) {
    return error_response(400, "BadRequest", "\"" + name + "\" is not a valid object name");
  }
  if (access_) {
    // The caller must be let read the object and the logs themselves, as `kubectl logs` would.
    resource_match shown = state_.catalog.find_resource(owner.id, stream.resource);
    const std::string& read = stream.reads.resource;
    const std::size_t slash = read.find('/');
    std::vector<access_check> needed{
        access_check::on_resource(stream.reads.verb, stream.reads.group, read.substr(0, slash), namespace_,
                                  slash == std::string::npos ? std::string() : read.substr(slash + 1))};
    if (shown.resource != nullptr) {
      needed.insert(needed.begin(),
                    access_check::on_resource("get", shown.resource->type.group, shown.resource->plural, namespace_));
    }
    // Both asked in one round: each `may` notes what it cannot decide yet.
    std::vector<std::optional<bool>> allowed;
    for (const access_check& check : needed) {
      allowed.push_back(access_->may(check));
    }
    for (std::size_t i = 0; i < needed.size(); ++i) {
      if (allowed[i] && !*allowed[i]) {
        return error_response(403, "Forbidden", access_->who().user + " may not " + needed[i].words());
      }
    }
    if (std::find(allowed.begin(), allowed.end(), std::nullopt) != allowed.end()) {
      return undecided();
    }
  }
  if (!state_.stream_pod_logs) {
    return error_response(
        404, "NotServed",
        "a snapshot holds no logs: they are read from a live cluster's API server as they are asked for");
  }
  stream_answer answer;
  try {
    answer = stream.open(stream_request{namespace_, name, target.query}, state_.context());
  } catch (const std::exception& error) {
    state_.interpreter_failed(owner.id, stream.resource, "stream", error.what());
    return error_response(500, "InternalError", "the request could not be answered: " + std::string(error.what()));
  }
  if (answer.status >= 400) {
    return error_response(answer.status, answer.reason.empty() ? "NotFound" : answer.reason, answer.message);
  }
  api_response response;
  response.content_type = "text/plain; charset=utf-8";
  response.stream = [streamer = state_.stream_pod_logs, plan = std::move(answer.logs)](chunk_sink& sink) {
    return streamer(plan, sink);
  };
  return response;
}

// A section's own route (/api/v1/{section}/{segment}/...): what it reads on demand is asked for,
// and its answer is cached like every view.
std::unique_ptr<answer_work> api_router::own_route(const api_request& request, const parsed_target& target,
                                                   const section& owner, const sextant::section_route& route) {
  const auto& s = target.segments;
  std::vector<std::string> rest(s.begin() + 4, s.end());
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
      return ready(std::move(*refusal));
    }
  }
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

std::unique_ptr<answer_work> api_router::list_route(const api_request& request, const parsed_target& target,
                                                    const section& owner, const resource_def& resource) {
  const char* route = "/api/v1/{section}/{resource}";
  auto fail = [route](api_response response) {
    response.route = route;
    return ready(std::move(response));
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
                    if (!at->page->step(budget)) {
                      return std::nullopt;
                    }
                    rendered_view view;
                    view.body = std::make_shared<const std::string>(at->page->take());
                    view.stamp = at->model->stamp;
                    return view;
                  });
  };
  if (!access_) {
    return whole_page();
  }
  // The kinds whose content the list shows (all of a computed page's): the caller must be let
  // list each of them. A computed page that names none is served to nobody.
  std::optional<api_response> refusal;
  if (resource.list_computed && resource.made_of.empty()) {
    refusal = error_response(403, "Forbidden",
                             list_path + " declares no kinds it is made of, so it is served to no caller");
  } else {
    refusal = refused_made_of(resource.made_of, list_path);
  }
  if (refusal) {
    refusal->route = route;
    return ready(std::move(*refusal));
  }
  return std::make_unique<caller_list_work>(
      [state = &state_, owner = &owner, resource = &resource, list_path](std::chrono::microseconds budget) {
        return current_model(*state, *owner, *resource, list_path, budget);
      },
      [this, resource = &resource, query, route](const list_model& model) {
        return caller_page(model, *resource, query, route);
      },
      std::move(whole_page), std::move(query), list_path, route);
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
      return ready(std::move(*refusal));
    }
  }
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

namespace sextant {
namespace {

// Stands for an answer while a permission it needs is being asked; never served (app::answer
// asks, then runs the request again).
api_response undecided() {
  return error_response(503, "Unavailable", "the caller's permissions are still being checked");
}

// The value of label `name` in a Prometheus series line, or empty.
std::string label_value(std::string_view line, std::string_view name) {
  const std::string key = std::string(name) + "=\"";
  for (std::size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at == 0 || line[at - 1] == '{' || line[at - 1] == ',') {
      const std::size_t from = at + key.size();
      return std::string(line.substr(from, line.find('"', from) - from));
    }
  }
  return {};
}

}  // namespace

std::optional<api_response> api_router::refused(const access_check& check) {
  std::optional<bool> allowed = access_->may(check);
  if (!allowed) {
    return undecided();
  }
  if (*allowed) {
    return std::nullopt;
  }
  return error_response(403, "Forbidden", access_->who().user + " may not " + check.words());
}

std::optional<bool> api_router::may_list(const kind_key& type, const std::string& namespace_) {
  const std::string plural = plural_of(type);
  std::optional<bool> cluster_wide = access_->may(access_check::on_resource("list", type.group, plural));
  if (!cluster_wide || *cluster_wide || namespace_.empty()) {
    return cluster_wide;
  }
  return access_->may(access_check::on_resource("list", type.group, plural, namespace_));
}

std::optional<std::string> api_router::hidden_for(const join_span& span) {
  const std::string plural = plural_of(span.type);
  std::optional<bool> allowed =
      access_->may(access_check::on_resource("get", span.type.group, plural, span.namespace_));
  if (allowed && *allowed) {
    return std::nullopt;
  }
  // Not decided yet counts as not allowed: such an answer is never served, and nothing leaks.
  return "you may not read " + plural + (span.namespace_.empty() ? "" : " in " + span.namespace_);
}

std::string api_router::plural_of(const kind_key& type) const {
  if (const served_kind* served = state_.served.find(type); served != nullptr && !served->plural.empty()) {
    return served->plural;  // discovery's word; a snapshot's inferred kinds have none
  }
  for (const section& s : state_.catalog.sections()) {
    for (const resource_def& resource : s.resources) {
      if (resource.type == type && !resource.plural.empty()) {
        return resource.plural;
      }
    }
  }
  // A kind neither served nor shown: the API's usual plural. Asked of the authorizer, a wrong
  // guess is denied, which hides rather than shows.
  std::string plural;
  for (char c : type.kind) {
    plural += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return plural + "s";
}

bool api_router::gzip_cached(const api_request& request) const {
  return access_ == nullptr && accepts_gzip(request.accept_encoding);
}

api_response api_router::caller_problems(const std::optional<std::string>& category) {
  json list = json::array();
  bool filtered = false;
  for (const problem& p : state_.problems.current(category)) {
    std::optional<bool> visible = may_list(p.type, p.namespace_);
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

std::string api_router::caller_metrics(std::string text) {
  // The series that name an object (sextant_problem) go when the caller may not list it, and
  // the per-category counts count only what is left.
  std::set<std::string> hidden;
  std::map<std::string, int> hidden_per_category;
  constexpr char separator = '\x1f';
  for (const problem& p : state_.problems.current()) {
    std::optional<bool> visible = may_list(p.type, p.namespace_);
    if (!visible || !*visible) {
      hidden.insert(p.category + separator + p.type.kind + separator + p.namespace_ + separator + p.name);
      ++hidden_per_category[p.category];
    }
  }
  if (hidden.empty()) {
    return text;
  }
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + from, end - from);
    from = end;
    if (line.starts_with("sextant_problem{")) {
      const std::string key = label_value(line, "category") + separator + label_value(line, "kind") + separator +
                              label_value(line, "namespace") + separator + label_value(line, "name");
      if (hidden.contains(key)) {
        continue;
      }
    } else if (line.starts_with("sextant_problems{")) {
      auto less = hidden_per_category.find(label_value(line, "category"));
      const std::size_t blank = line.rfind(' ');
      if (less != hidden_per_category.end() && blank != std::string_view::npos) {
        const double count = std::strtod(std::string(line.substr(blank + 1)).c_str(), nullptr) - less->second;
        out += std::string(line.substr(0, blank + 1)) + std::to_string(static_cast<long long>(count)) + "\n";
        continue;
      }
    }
    out += line;
  }
  return out;
}

std::optional<api_response> api_router::refused_made_of(const std::vector<kind_key>& made_of,
                                                       const std::string& what) {
  // Every question in one round: each `may` notes what it cannot decide yet.
  std::vector<std::pair<std::string, std::optional<bool>>> allowed;
  for (const kind_key& kind : made_of) {
    const std::string plural = plural_of(kind);
    allowed.emplace_back(plural, access_->may(access_check::on_resource("list", kind.group, plural)));
  }
  for (const auto& [plural, allowed_here] : allowed) {
    if (allowed_here && !*allowed_here) {
      return error_response(403, "Forbidden",
                            access_->who().user + " may not list " + plural + ", which " + what + " shows");
    }
  }
  if (!access_->decided()) {
    return undecided();
  }
  return std::nullopt;
}

caller_cut api_router::caller_page(const list_model& model, const resource_def& resource, const list_query& query,
                                   const std::string& route) {
  list_cut cut;
  if (!resource.type.kind.empty()) {
    const std::string& group = resource.type.group;
    std::optional<bool> cluster_wide = access_->may(access_check::on_resource("list", group, resource.plural));
    if (!cluster_wide) {
      return {undecided(), std::nullopt};
    }
    if (!*cluster_wide) {
      if (!resource.namespaced || query.namespace_) {
        // One scope asked for: the caller may list there, or gets the API server's 403.
        if (auto refusal = refused(
                access_check::on_resource("list", group, resource.plural, query.namespace_.value_or(std::string())))) {
          refusal->route = route;
          return {std::move(refusal), std::nullopt};
        }
      } else {
        // One question per namespace (the model's runs), never one per item.
        std::set<std::string> readable;
        for (const namespace_run& run : model.runs) {
          std::optional<bool> allowed =
              access_->may(access_check::on_resource("list", group, resource.plural, run.namespace_));
          if (allowed && *allowed) {
            readable.insert(run.namespace_);
          } else if (allowed) {
            cut.filtered = true;
          }
        }
        if (cut.filtered) {
          cut.namespaces = std::move(readable);
        }
      }
    }
  }
  // The joined entries of the items shown, each kind and namespace asked about once.
  bool hides = false;
  std::set<std::pair<kind_key, std::string>> asked;
  for (const namespace_run& run : model.runs) {
    if (cut.namespaces && !cut.namespaces->contains(run.namespace_)) {
      continue;
    }
    for (const auto& [type, namespace_] : run.join_scopes) {
      if (asked.emplace(type, namespace_).second && hidden_for(join_span{0, 0, type, namespace_})) {
        hides = true;
      }
    }
  }
  if (!access_->decided()) {
    return {undecided(), std::nullopt};
  }
  if (!cut.filtered && !hides) {
    return {};
  }
  if (hides) {
    cut.hidden = [this](const join_span& span) { return hidden_for(span); };
  }
  return {std::nullopt, std::move(cut)};
}

}  // namespace sextant
