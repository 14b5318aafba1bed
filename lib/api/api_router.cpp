// The router's core: a request's target matched to its route family (dispatch), the answer
// completed for the wire (ETag, gzip, Vary, the request counted), /healthz, /readyz, /metrics,
// /api/v1/sections, and the view cache every cached route answers from. The families live beside
// it: resource_routes.cpp, problems_route.cpp, settings_route.cpp, section_routes.cpp,
// stream_route.cpp, and caller_cuts.cpp for what one caller may see.

#include "api/api_router.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/answer_key.hpp"
#include "api/gzip_body.hpp"
#include "api/list_query.hpp"
#include "api/out_of_date.hpp"
#include "api/resource_views.hpp"
#include "api/route_answers.hpp"
#include "api/route_match.hpp"
#include "api/view_cache.hpp"
#include "auth/cut_memo.hpp"
#include "util/key_encoding.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

namespace {

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

// An answer from the view cache, or from the shared job rendering it.
class cached_work final : public answer_work {
 public:
  // `copy`: the answer as the caller gets it.
  using caller_copy = std::function<api_response(const cached_answer&)>;
  cached_work(std::shared_ptr<answer_job> job, std::string route, log_throttle& failures_logged, caller_copy copy)
      : job_(std::move(job)), route_(std::move(route)), failures_logged_(failures_logged), copy_(std::move(copy)) {}
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
    return copy_(job_->result());
  }

 private:
  std::shared_ptr<answer_job> job_;
  std::string route_;
  log_throttle& failures_logged_;
  caller_copy copy_;
  std::optional<api_response> failed_;
};

}  // namespace

api_router::api_router(daemon_state& state, request_access* access) : state_(state), access_(access) {
  if (access_) {
    cuts_.emplace(*access_,
                  [state = &state_](const kind_key& type) { return state->catalog.plural_for(type, state->served); });
  }
  if (!state_.views) {
    state_.views = std::make_shared<view_cache>();
  }
}

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
    return answer_now(std::move(response));
  }
  try {
    return dispatch(request, target);
  } catch (const std::exception& error) {
    if (std::uint64_t held_back = 0;
        state_.request_failures_logged.allow(std::chrono::steady_clock::now(), held_back)) {
      spdlog::error("{} {}: {}{}", request.method, request.target.substr(0, 200), error.what(),
                    log_throttle::held_back_note(held_back));
    }
    return answer_now(
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
  const bool read = request.method == "GET" || request.method == "HEAD";
  auto read_only = [&](const char* route, auto&& answer) {
    api_response response = read ? answer() : method_not_allowed(request.method, "GET, HEAD");
    response.route = route;
    return answer_now(std::move(response));
  };
  const route_match match = match_route(target.segments);
  switch (match.route) {
    case api_route::healthz:
      return read_only("/healthz", [&] {
        if (auto bad = only_params(target, {})) {
          return *bad;
        }
        api_response ok;
        ok.content_type = "text/plain; charset=utf-8";
        ok.body = "ok\n";
        return ok;
      });
    case api_route::ca_certificate:
      return read_only("/.well-known/sextant/ca.crt", [&] {
        if (auto bad = only_params(target, {})) {
          return *bad;
        }
        if (state_.tls_ca_pem.empty()) {
          return error_response(404, "NotFound",
                                "this daemon serves no certificate of its own making (--tls=self-signed)");
        }
        api_response ca;
        ca.content_type = "application/x-pem-file";
        ca.body = state_.tls_ca_pem;
        return ca;
      });
    case api_route::readyz:
      return read_only("/readyz", [&] { return only_params(target, {}).value_or(readiness()); });
    case api_route::metrics:
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
    case api_route::outside_api:
      return answer_now(error_response(404, "NotFound",
                                       "no route " + request.target.substr(0, 200) + " (the API lives under /api/v1)"));
    case api_route::sections:
      return read_only("/api/v1/sections", [&] { return sections(target); });
    case api_route::problems:
      if (!read) {
        return read_only("/api/v1/problems", [] { return api_response{}; });
      }
      return problems(request, target);
    case api_route::problem_settings: {
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
      return answer_now(std::move(response));
    }
    case api_route::section:
      break;
  }
  if (!read) {
    api_response response = method_not_allowed(request.method, "GET, HEAD");
    response.route = "/api/v1/{section}/...";
    return answer_now(std::move(response));
  }
  return section_route(request, target, match);
}

api_response api_router::readiness() {
  std::vector<std::string> waiting = state_.source->unsynced();
  if (waiting.empty()) {
    api_response ok;
    ok.content_type = "text/plain; charset=utf-8";
    ok.body = "ok\n";
    // Ready, since nothing more will come of them; but what they hold is not known.
    std::vector<std::string> forbidden = state_.source->forbidden();
    if (!forbidden.empty()) {
      std::string names;
      for (const std::string& name : forbidden) {
        names += (names.empty() ? "" : ", ") + name;
      }
      ok.body += "forbidden, so not read: " + names + "\n";
    }
    // Ready too, since what was read is served; but the views say what may be out of date.
    for (const kind_key& type : state_.store.kinds()) {
      if (std::string stale = out_of_date_reason(state_.store, type); !stale.empty()) {
        ok.body += type.to_string() + " " + stale + "\n";
      }
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

std::unique_ptr<answer_work> api_router::cached(
    const parsed_target& target, bool gzip, const std::string& route, cache_tier tier,
    std::function<std::optional<rendered_view>(std::chrono::microseconds)> render) {
  return cached_at(answer_scope(target), gzip, route, tier, std::move(render));
}

std::unique_ptr<answer_work> api_router::cached_at(
    const std::string& scope, bool gzip, const std::string& route, cache_tier tier,
    std::function<std::optional<rendered_view>(std::chrono::microseconds)> render) {
  const std::string key = answer_key(scope, gzip);
  view_cache& cache = *state_.views;
  if (const cached_answer* hit = cache.find(key, state_)) {
    hit->stamp.ask_again(state_);
    return answer_now(caller_copy(*hit, route, key));
  }
  std::shared_ptr<answer_job> job =
      cache.job(key, [&] { return std::make_shared<answer_job>(cache, key, scope, gzip, tier, std::move(render)); });
  // The router outlives the work: both end with the request.
  return std::make_unique<cached_work>(
      std::move(job), route, state_.request_failures_logged,
      [this, route, key](const cached_answer& answer) { return caller_copy(answer, route, key); });
}

api_response api_router::caller_copy(const cached_answer& answer, const std::string& route, const std::string& key) {
  api_response response = from_cache(answer, route);
  if (!cuts_ || !answer.joins || !answer.body) {
    return response;
  }
  // What the caller may not read of the joined objects: decided once per answer text and kept
  // in the caller's memo while its decisions hold.
  const std::string what = key_builder().add("joined").add(key).take();
  const kept_cut* kept = cuts_->recalled(what, answer.body.get());
  const joined_cut* decided = kept != nullptr ? std::get_if<joined_cut>(kept) : nullptr;
  joined_cut fresh;
  if (decided == nullptr) {
    fresh = cuts_->hidden_joins(*answer.joins);
    if (!cuts_->decided()) {
      return response;  // never served: the request runs again once the questions are decided
    }
    cuts_->remember(what, answer.body, fresh);
    decided = &fresh;
  }
  if (decided->identity.empty()) {
    return response;
  }
  // The copy with those entries hidden is an answer of its own in the view cache, kept under
  // what it hides and stamped as the answer it is cut from: every caller who may not read the
  // same objects gets the same bytes, copied and hashed once per change.
  view_cache& cache = *state_.views;
  const std::string copy_key = key + key_builder().add("joined").add(decided->identity).take();
  const cached_answer* copy = cache.find(copy_key, state_);
  cached_answer made;
  if (copy == nullptr) {
    made.status = answer.status;
    made.content_type = answer.content_type;
    made.stamp = answer.stamp;
    made.body = std::make_shared<const std::string>(
        redact_joins(*answer.body, *answer.joins, [decided](const join_span& span) -> std::optional<std::string> {
          auto it = decided->hidden.find(std::pair(span.type, span.namespace_));
          return it == decided->hidden.end() ? std::nullopt : std::optional<std::string>(it->second);
        }));
    made.etag = etag_of(*made.body);
    cache.store(copy_key, made, cache_tier::cuts);
    copy = &made;
  }
  // Never gzipped: answers cut per caller are cached uncompressed (api_router::gzip_cached).
  response.shared_body = copy->body;
  response.body.clear();
  response.etag = copy->etag;
  response.gzipped = false;
  return response;
}

bool api_router::gzip_cached(const api_request& request) const {
  return access_ == nullptr && accepts_gzip(request.accept_encoding);
}

}  // namespace sextant
