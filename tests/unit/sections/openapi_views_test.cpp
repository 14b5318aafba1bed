// api/openapi.yaml documents every answer the daemon gives: each list, each details answer of
// every object of the demo cluster, every section's own routes, sections and problems. The
// answers are asked of the router as a client would ask them, for every registered section, so
// a new section's views are checked as soon as it is registered.
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "support/demo_daemon.hpp"
#include "support/openapi_check.hpp"

using namespace sextant;
using sextant::testing::demo_daemon;
using sextant::testing::openapi_document;

namespace {

// One line per distinct departure, so that one undocumented field of a hundred objects reads once.
struct departures {
  std::map<std::string, std::string> first_seen_in;

  void add(const std::string& answer, const std::string& what, const std::vector<std::string>& found) {
    for (const std::string& line : found) {
      first_seen_in.emplace(what + " " + line, answer);
    }
  }
  void report() const {
    for (const auto& [line, answer] : first_seen_in) {
      FAIL_CHECK(line << "   (first in " << answer << ")");
    }
  }
};

std::string object_path(const section& s, const resource_def& r, const cached_object& object) {
  return "/api/v1/" + s.id + "/" + r.id + "/" + (r.namespaced ? std::string(object.namespace_) + "/" : "") +
         std::string(object.name);
}

}  // namespace

TEST_CASE("the x-sextant keys of api/openapi.yaml name registered resources", "[openapi]") {
  std::map<std::string, std::string> registered;  // section/resource -> its scope
  for (const section& s : all_sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.shown) {
        continue;  // no page: nothing to document
      }
      registered.emplace(s.id + "/" + r.id,
                         r.type.kind.empty() ? "computed" : (r.namespaced ? "namespaced" : "cluster"));
    }
  }
  for (const std::string& named : openapi_document::merged().resources_named()) {
    INFO(named << " is named by an x-sextant key but is no registered resource");
    CHECK(registered.contains(named));
  }
  // x-sextant-resources is what the list and details paths are written from: every resource,
  // each with the scope its routes have.
  CHECK(openapi_document::merged().resources_declared() == registered);
}

TEST_CASE("api/openapi.yaml documents every field of every answer about the demo cluster", "[openapi]") {
  demo_daemon demo(true);
  const openapi_document& document = openapi_document::merged();
  departures found;
  std::size_t details_checked = 0;

  for (const char* target : {"/api/v1/sections", "/api/v1/problems", "/api/v1/settings/problems"}) {
    auto [status, body] = demo.get(target);
    REQUIRE(status == 200);
    found.add(target, target, document.departures(body, document.response_schema(target, status)));
  }
  REQUIRE_FALSE(demo.get("/api/v1/problems").second["problems"].empty());

  for (const section& s : demo.state.catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.shown) {
        continue;
      }
      const std::string resource = s.id + "/" + r.id;
      const std::string list_target = "/api/v1/" + resource;
      auto [status, list] = demo.get(list_target);
      INFO(list_target);
      REQUIRE(status == 200);
      json list_schema = document.response_schema(list_target, 200);
      REQUIRE_FALSE(list_schema.is_null());
      found.add(list_target, resource + " list", document.departures(list, list_schema));
      if (r.type.kind.empty()) {
        continue;  // a computed page has no details
      }
      for (const object_ptr& object : demo.state.store.list(r.type)) {
        const std::string target = object_path(s, r, *object);
        auto [details_status, details] = demo.get(target);
        INFO(target);
        REQUIRE(details_status == 200);
        found.add(target, resource + " details", document.departures(details, document.response_schema(target, 200)));
        ++details_checked;
      }
    }
  }
  CHECK(details_checked > 50);

  // A section's own routes, asked about every cached object by its resource and name (the
  // shape of /api/v1/kueue/queue/{jobresource}/{namespace}/{name}).
  for (const section& s : demo.state.catalog.sections()) {
    for (const section_route& route : s.routes) {
      const std::string prefix = "/api/v1/" + s.id + "/" + route.segment;
      INFO(prefix);
      CHECK(document.documents_path_prefix(prefix));
      std::size_t answered = 0;
      for (const section& owner : demo.state.catalog.sections()) {
        for (const resource_def& r : owner.resources) {
          if (r.type.kind.empty() || !r.shown) {
            continue;
          }
          for (const object_ptr& object : demo.state.store.list(r.type)) {
            const std::string target = prefix + "/" + r.id + "/" +
                                       (r.namespaced ? std::string(object->namespace_) + "/" : "") +
                                       std::string(object->name);
            auto [status, body] = demo.get(target);
            json schema = document.response_schema(target, status);
            if (schema.is_null() && status != 200) {
              // Asked in a shape the route does not take: still the error envelope.
              schema = json{{"$ref", "#/components/schemas/Error"}};
            }
            if (schema.is_null()) {
              found.add(target, prefix, {"answer 200 is not documented"});
              continue;
            }
            found.add(target, prefix + " " + std::to_string(status), document.departures(body, schema));
            answered += status == 200 ? 1 : 0;
          }
        }
      }
      CHECK(answered > 0);
    }
  }

  // Streaming routes: documented under their resource; the demo is a snapshot, which answers
  // each with the documented error (a snapshot holds no logs).
  for (const section& s : demo.state.catalog.sections()) {
    for (const streaming_route& stream : s.streams) {
      const std::string documented =
          "/api/v1/" + s.id + "/" + stream.resource + "/{namespace}/{name}/" + stream.segment;
      INFO(documented);
      CHECK(document.documents_path_prefix(documented));
      const resource_match match = demo.state.catalog.find_resource(s.id, stream.resource);
      REQUIRE(match.resource != nullptr);
      for (const object_ptr& object : demo.state.store.list(match.resource->type)) {
        const std::string target = "/api/v1/" + s.id + "/" + stream.resource + "/" + std::string(object->namespace_) +
                                   "/" + std::string(object->name) + "/" + stream.segment;
        auto [status, body] = demo.get(target);
        CHECK(status == 404);
        json schema = document.response_schema(target, status);
        CHECK_FALSE(schema.is_null());
        found.add(target, documented + " " + std::to_string(status), document.departures(body, schema));
      }
    }
  }
  found.report();
}

TEST_CASE("a details answer is its summary plus blocks: no summary field changes in the details", "[openapi]") {
  // api.md: "A details answer is the SUMMARY plus the resource's own blocks". A front-end that
  // reads `cohort` from a list row must read the same value, of the same type, in the details.
  demo_daemon demo(true);
  std::size_t compared = 0;
  for (const section& s : demo.state.catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.shown || r.type.kind.empty()) {
        continue;
      }
      const json list = demo.get("/api/v1/" + s.id + "/" + r.id).second;
      for (const json& summary : list["items"]) {
        const std::string target = summary["path"].get<std::string>();
        const json details = demo.get(target).second;
        for (const auto& [field, value] : summary.items()) {
          INFO(target << " ." << field);
          CHECK(details.contains(field));
          CHECK(details.value(field, json()) == value);
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 500);
}

TEST_CASE("OpenAPI 3.0.3's nullable: only beside a type, and through every part of an allOf", "[openapi]") {
  const openapi_document document(json::parse(R"({"components": {"schemas": {
    "Thing": {"type": "object", "properties": {"a": {"type": "string"}}},
    "NullValue": {"type": "object", "nullable": true, "enum": [null]}}}})"));
  CHECK(document.allows_null(json::parse(R"({"type": "string", "nullable": true})")));
  CHECK_FALSE(document.allows_null(json::parse(R"({"type": "string"})")));
  CHECK(document.allows_null(json::parse(R"({"description": "anything"})")));
  // What the document said 30 times: `nullable` beside a $ref or an allOf, which 3.0.3 ignores.
  CHECK_FALSE(document.allows_null(json::parse(R"({"$ref": "#/components/schemas/Thing", "nullable": true})")));
  CHECK_FALSE(
      document.allows_null(json::parse(R"({"allOf": [{"$ref": "#/components/schemas/Thing"}], "nullable": true})")));
  const json nullable_thing =
      json::parse(R"({"oneOf": [{"$ref": "#/components/schemas/Thing"}, {"$ref": "#/components/schemas/NullValue"}]})");
  CHECK(document.allows_null(nullable_thing));
  CHECK(document.departures(json::parse(R"({"a": "x"})"), nullable_thing).empty());
  CHECK(document.departures(json(nullptr), nullable_thing).empty());
  CHECK_FALSE(document.departures(json(3), nullable_thing).empty());
  CHECK_FALSE(
      document.departures(json(nullptr), json::parse(R"({"enum": ["a", "b"], "type": "string", "nullable": true})"))
          .empty());
}
