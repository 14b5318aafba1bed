// The router's first step: a target's segments name one route family, whatever the state.
#include <catch2/catch.hpp>

#include "api/route_match.hpp"

using namespace sextant;

TEST_CASE("a target's segments name its route family", "[router][match]") {
  CHECK(match_route({"healthz"}).route == api_route::healthz);
  CHECK(match_route({"readyz"}).route == api_route::readyz);
  CHECK(match_route({"metrics"}).route == api_route::metrics);
  CHECK(match_route({".well-known", "sextant", "ca.crt"}).route == api_route::ca_certificate);
  CHECK(match_route({"api", "v1", "sections"}).route == api_route::sections);
  CHECK(match_route({"api", "v1", "problems"}).route == api_route::problems);
  CHECK(match_route({"api", "v1", "settings", "problems"}).route == api_route::problem_settings);
  // Anything else under /api/v1 is a section's, to be found or refused by the section routes.
  const std::vector<std::string> details{"api", "v1", "kueue", "workloads", "team-a", "w1"};
  route_match section = match_route(details);
  CHECK(section.route == api_route::section);
  CHECK(section.section == "kueue");
  CHECK(std::vector<std::string>(section.rest.begin(), section.rest.end()) ==
        std::vector<std::string>{"workloads", "team-a", "w1"});
  CHECK(match_route({"api", "v1", "settings"}).route == api_route::section);
  CHECK(match_route({"api", "v1", "problems", "x"}).route == api_route::section);
  CHECK(match_route({"api", "v1", "core"}).rest.empty());
}

TEST_CASE("a target outside /api/v1 names no route", "[router][match]") {
  CHECK(match_route({}).route == api_route::outside_api);
  CHECK(match_route({"healthz", "x"}).route == api_route::outside_api);
  CHECK(match_route({"api", "v1"}).route == api_route::outside_api);
  CHECK(match_route({"api", "v2", "sections"}).route == api_route::outside_api);
  CHECK(match_route({"apis", "v1", "sections"}).route == api_route::outside_api);
}
