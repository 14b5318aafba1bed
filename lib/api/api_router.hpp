#pragma once
// The read-only HTTP API of api.md, as a function from request to answer.
//
// Routes: /healthz, /readyz, /metrics, /api/v1/sections, /api/v1/problems,
// /api/v1/settings/problems (GET, PUT), /api/v1/{section}/{resource}[/{ns}]/{name} and each
// section's own routes. Every failure is the error envelope; nothing here throws to the server.
#include "api/http_types.hpp"
#include "app/daemon_state.hpp"

namespace sextant {

class api_router {
 public:
  explicit api_router(daemon_state& state) : state_(state) {}

  api_response handle(const api_request& request);

 private:
  api_response dispatch(const api_request& request, const parsed_target& target);
  api_response sections(const parsed_target& target);
  api_response problems(const parsed_target& target);
  api_response get_settings(const parsed_target& target);
  api_response put_settings(const api_request& request, const parsed_target& target);
  api_response readiness();
  api_response section_route(const parsed_target& target);

  daemon_state& state_;
};

}  // namespace sextant
