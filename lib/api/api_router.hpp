#pragma once
// The read-only HTTP API of api.md, as a function from request to answer.
//
// Routes: /healthz, /readyz, /metrics, /api/v1/sections, /api/v1/problems,
// /api/v1/settings/problems (GET, PUT), /api/v1/{section}/{resource}[/{ns}]/{name} and each
// section's own routes. Every failure is the error envelope; nothing here throws to the server.
//
// Lists, details, the problems and section routes are rendered once per change and served
// from the daemon's view_cache. A render may take several slices (`begin` then `step`), so the
// server can answer other requests between slices; `handle` runs every slice at once.
//
// With a caller's request_access (--auth=kubernetes) every answer is cut to what the caller may
// read, from the same cached rendering: lists keep the namespaces the caller may `list` (and say
// "filtered": true when they lost items), details need `get`, joined objects the caller may not
// read become {"hidden": ...}, problems and /metrics drop what the caller may not list, and the
// settings PUT needs `put` on the non-resource URL /sextant/settings/problems. A decision not
// known yet is noted in the request_access; the caller asks the API server, then runs the request
// again (app::answer).
//
// The class is one, its definitions are split by route family: route_match.hpp (which family a
// target names, and its parameters), api_router.cpp (dispatch, the wire, /healthz, /readyz,
// /metrics, sections, the cache), resource_routes.cpp, problems_route.cpp,
// settings_route.cpp, section_routes.cpp, stream_route.cpp and caller_cuts.cpp (the answers to the
// per-caller decisions of auth/caller_cuts.hpp); what they share is in route_answers.hpp.
#include <chrono>
#include <memory>

#include "api/http_types.hpp"
#include "api/list_query.hpp"
#include "api/route_match.hpp"
#include "auth/caller_cuts.hpp"
#include "auth/join_marks.hpp"
#include "auth/request_access.hpp"
#include "runtime/daemon_state.hpp"

namespace sextant {

class answer_job;
enum class cache_tier;
struct cached_answer;
struct rendered_view;

// A caller's cut of a list page (see api_router::caller_page).
struct caller_cut {
  std::optional<api_response> refusal;  // a 403, or the placeholder while a decision is not known
  std::shared_ptr<const list_cut> cut;
};

// An answer under way: step it until it says it is done, then take the response.
class answer_work {
 public:
  virtual ~answer_work() = default;
  // Does about `budget` of work; true once the answer is ready.
  virtual bool step(std::chrono::microseconds budget) = 0;
  virtual api_response take() = 0;
};

class api_router {
 public:
  // `access`: the caller's decisions; null when every caller may see everything (--auth=none).
  explicit api_router(daemon_state& state, request_access* access = nullptr);

  // The whole answer now (tests, and callers that need not yield).
  api_response handle(const api_request& request);
  // The answer in slices: step the work, then pass what it takes to `complete`.
  std::unique_ptr<answer_work> begin(const api_request& request);
  // Adds the ETag (304 when If-None-Match matches), gzip when asked, and counts the request.
  api_response complete(const api_request& request, api_response response);
  // /readyz's answer: 200, or 503 naming the kinds not synced yet (also published to the probe port).
  api_response readiness();

 private:
  using work = std::unique_ptr<answer_work>;
  work dispatch(const api_request& request, const parsed_target& target);
  api_response sections(const parsed_target& target);
  work problems(const api_request& request, const parsed_target& target);
  api_response get_settings(const parsed_target& target);
  api_response put_settings(const api_request& request, const parsed_target& target);
  work section_route(const api_request& request, const parsed_target& target, const route_match& matched);
  api_response stream_route(const api_request& request, const parsed_target& target, const section& owner,
                            const streaming_route& stream);
  work own_route(const api_request& request, const parsed_target& target, const section& owner,
                 const sextant::section_route& route, std::vector<std::string> rest);
  work list_route(const api_request& request, const parsed_target& target, const section& owner,
                  const resource_def& resource);
  work details_route(const api_request& request, const section& owner, const resource_def& resource,
                     const std::string& namespace_, const std::string& name);
  // Serves the answer to `target` (gzipped or not) from the view cache, or renders it with
  // `render` (shared with any request for the same answer that is rendering it now).
  // `tier`: where the answer is kept (view_cache.hpp).
  work cached(const parsed_target& target, bool gzip, const std::string& route, cache_tier tier,
              std::function<std::optional<rendered_view>(std::chrono::microseconds)> render);
  // The same, for an answer named by its scope (answer_key.hpp) rather than by a request.
  work cached_at(const std::string& scope, bool gzip, const std::string& route, cache_tier tier,
                 std::function<std::optional<rendered_view>(std::chrono::microseconds)> render);

  // Per-caller cuts (null access_: none of them run); auth/caller_cuts decides them.
  // The 403 for a check the caller fails, or the placeholder while it is not decided; nullopt: allowed.
  std::optional<api_response> refused(const access_check& check);
  // Whether answers are cached gzipped for this request: not when they are cut per caller.
  bool gzip_cached(const api_request& request) const;
  // The check of what a view is made of (resource_def::made_of): the caller must be let list
  // every kind cluster-wide. The 403 naming the kind and `what` shows it, the placeholder while
  // undecided, or nullopt: allowed.
  std::optional<api_response> refused_made_of(const std::vector<kind_key>& made_of, const std::string& what);
  // The caller's cut of a list page: a refusal, the cut to render, or neither (the caller may read
  // the whole cached page).
  caller_cut caller_page(const std::shared_ptr<const list_model>& model, const resource_def& resource,
                         const list_query& query, const std::string& route);
  std::string caller_metrics(std::string text);
  // A cached answer (kept under `key`) as the caller gets it: the shared bytes, or, when it joins
  // objects the caller may not read, a copy with those entries replaced by {"hidden": ...}.
  api_response caller_copy(const cached_answer& answer, const std::string& route, const std::string& key);

  daemon_state& state_;
  request_access* access_ = nullptr;
  std::optional<caller_cuts> cuts_;  // with access_ only
};

// The non-resource URL a caller needs `put` on to change problem settings (README "Security").
inline constexpr const char* settings_permission_path = "/sextant/settings/problems";

}  // namespace sextant
