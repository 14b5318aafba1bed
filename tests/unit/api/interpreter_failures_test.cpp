// An interpreter that throws costs its view the part it would have written, never the answer,
// and is counted in /metrics by section, resource and interpreter.
#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

const kind_key thing_kind{"example.com", "Thing"};

[[noreturn]] void fail() {
  throw std::runtime_error("cannot read this");
}

// A section whose every interpreter throws.
section broken_section() {
  section s;
  s.id = "broken";
  s.title = "Broken";
  s.group = "example.com";
  s.version_preference = {"v1"};
  resource_def things = kind_resource("things", "Things", thing_kind, scope::namespaced);
  things.state = [](const cached_object&, const view_context&) -> object_state { fail(); };
  things.summarize = [](const cached_object&, const view_context&, json&) { fail(); };
  things.details = [](const cached_object&, const view_context&, details_view&) { fail(); };
  s.resources.push_back(std::move(things));
  resource_def page;
  page.id = "page";
  page.title = "Page";
  page.type = kind_key{"example.com", ""};
  page.list_computed = [](const view_context&) -> computed_list { fail(); };
  s.resources.push_back(std::move(page));
  s.categories.push_back(problem_category{"broken", "Broken", true});
  s.rules.push_back(problem_rule{"broken", thing_kind,
                                 [](const cached_object&, const view_context&) -> std::vector<finding> { fail(); }});
  s.extensions.push_back(
      details_extension{thing_kind, [](const cached_object&, const view_context&, details_view&) { fail(); }});
  s.routes.push_back(
      section_route{"look", [](std::span<const std::string>, const view_context&) -> route_answer { fail(); }});
  return s;
}

struct broken_daemon {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{[] {
                       std::vector<section> sections;
                       sections.push_back(broken_section());
                       return sections;
                     }(),
                     clock};
  api_router router{state};

  broken_daemon() {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("things.yaml", R"(
apiVersion: example.com/v1
kind: Thing
metadata: {name: t1, namespace: ns, uid: u1}
)",
                     false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }

  api_response get(const std::string& target) { return router.handle({"GET", target, "", ""}); }
  double failures(const char* resource, const char* interpreter) const {
    return state.metrics.value("sextant_interpreter_failures_total",
                               {{"section", "broken"}, {"resource", resource}, {"interpreter", interpreter}});
  }
};

}  // namespace

TEST_CASE("an interpreter that throws is counted by section, resource and interpreter", "[metrics][sections]") {
  broken_daemon d;

  api_response list = d.get("/api/v1/broken/things");
  REQUIRE(list.status == 200);
  json items = json::parse(list.body)["items"];
  REQUIRE(items.size() == 1);
  CHECK(items[0]["state"]["label"] == "Unknown");
  CHECK(items[0]["state"]["reason"] == "InterpreterFailed");
  CHECK(d.failures("things", "state") == 1);
  CHECK(d.failures("things", "summarize") == 1);

  api_response details = d.get("/api/v1/broken/things/ns/t1");
  REQUIRE(details.status == 200);
  json body = json::parse(details.body);
  CHECK(body["name"] == "t1");
  CHECK(body["notes"].size() == 2);  // its own details and the extension
  CHECK(d.failures("things", "state") == 2);
  CHECK(d.failures("things", "details") == 1);
  CHECK(d.failures("things", "details_extension") == 1);

  api_response page = d.get("/api/v1/broken/page");
  REQUIRE(page.status == 200);
  json computed = json::parse(page.body);
  CHECK(computed["items"].empty());
  CHECK(computed["incomplete"] == true);
  CHECK(computed["incompleteReason"] == "the list could not be computed: cannot read this");
  CHECK(d.failures("page", "list_computed") == 1);

  CHECK(d.get("/api/v1/broken/look/things/ns/t1").status == 500);
  CHECK(d.failures("look", "route") == 1);

  d.state.evaluate_problems();
  CHECK(d.state.problems.current().empty());
  CHECK(d.failures("things", "problem_rule") == 1);

  // Exported as Prometheus text.
  api_response metrics = d.get("/metrics");
  CHECK_THAT(metrics.body, Catch::Contains("# TYPE sextant_interpreter_failures_total counter"));
  CHECK_THAT(
      metrics.body,
      Catch::Contains(
          R"(sextant_interpreter_failures_total{section="broken",resource="things",interpreter="problem_rule"} 1)"));
  CHECK_THAT(metrics.body,
             Catch::Contains(
                 R"(sextant_interpreter_failures_total{section="broken",resource="things",interpreter="state"} 2)"));
}
