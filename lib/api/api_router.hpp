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
#include <chrono>
#include <memory>

#include "api/http_types.hpp"
#include "app/daemon_state.hpp"

namespace sextant {

class answer_job;
struct cached_answer;
struct rendered_view;

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
  explicit api_router(daemon_state& state) : state_(state) {}

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
  work section_route(const api_request& request, const parsed_target& target);
  api_response stream_route(const api_request& request, const parsed_target& target, const section& owner,
                            const streaming_route& stream);
  work own_route(const api_request& request, const parsed_target& target, const section& owner,
                 const sextant::section_route& route);
  work list_route(const api_request& request, const parsed_target& target, const section& owner,
                  const resource_def& resource);
  work details_route(const api_request& request, const section& owner, const resource_def& resource,
                     const std::string& namespace_, const std::string& name);
  // Serves `key` from the view cache, or renders it with `render` (shared with any request for
  // the same key that is rendering it now).
  work cached(const api_request& request, const std::string& key, const std::string& route,
              std::function<std::optional<rendered_view>(std::chrono::microseconds)> render);

  daemon_state& state_;
};

}  // namespace sextant
