#pragma once
// Which route family a request's target names, from its segments alone (no state is read): the
// router's first step (api_router::dispatch). Within a section (/api/v1/{section}/...) the
// section itself says whether the next segment is a resource or a route of its own
// (section_routes.cpp). Header-only: a few comparisons.
#include <span>
#include <string>
#include <vector>

namespace sextant {

enum class api_route {
  healthz,           // /healthz
  readyz,            // /readyz
  metrics,           // /metrics
  ca_certificate,    // /.well-known/sextant/ca.crt: the CA of --tls=self-signed
  sections,          // /api/v1/sections
  problems,          // /api/v1/problems
  problem_settings,  // /api/v1/settings/problems
  section,           // /api/v1/{section}/...
  outside_api,       // anything else: 404, "the API lives under /api/v1"
};

struct route_match {
  api_route route = api_route::outside_api;
  // For api_route::section: the section's id and the segments after it.
  std::string section;
  std::span<const std::string> rest;
};

// `segments` must outlive the match (`rest` points into them).
inline route_match match_route(const std::vector<std::string>& segments) {
  const auto& s = segments;
  if (s.size() == 1) {
    if (s[0] == "healthz") {
      return {api_route::healthz, {}, {}};
    }
    if (s[0] == "readyz") {
      return {api_route::readyz, {}, {}};
    }
    if (s[0] == "metrics") {
      return {api_route::metrics, {}, {}};
    }
  }
  if (s.size() == 3 && s[0] == ".well-known" && s[1] == "sextant" && s[2] == "ca.crt") {
    return {api_route::ca_certificate, {}, {}};
  }
  if (s.size() < 3 || s[0] != "api" || s[1] != "v1") {
    return {api_route::outside_api, {}, {}};
  }
  if (s.size() == 3 && s[2] == "sections") {
    return {api_route::sections, {}, {}};
  }
  if (s.size() == 3 && s[2] == "problems") {
    return {api_route::problems, {}, {}};
  }
  if (s.size() == 4 && s[2] == "settings" && s[3] == "problems") {
    return {api_route::problem_settings, {}, {}};
  }
  return {api_route::section, s[2], std::span<const std::string>(s).subspan(3)};
}

}  // namespace sextant
