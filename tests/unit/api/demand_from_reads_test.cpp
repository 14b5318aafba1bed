// A kind read on demand is asked for by whatever view read it, as recorded while the view
// rendered, and again each time the cached view is served: no view declares what it reads.
#include <algorithm>

#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"
#include "support/scripted_cluster.hpp"

using namespace sextant;

namespace {

const kind_key gadget_kind{"example.com", "Gadget"};
const kind_key box_kind{"example.com", "Box"};

object_state plain_state(const cached_object&, const view_context&) {
  return object_state{"Defined", "", ""};
}

// Gadgets are read on demand; a Box's details count them, its list does not; the section's own
// route counts them too. Nothing declares that the details or the route read Gadgets.
section gadget_section() {
  section s;
  s.id = "gadgets";
  s.title = "Gadgets";
  s.group = "example.com";
  s.version_preference = {"v1"};
  resource_def gadgets = kind_resource("gadgets", "Gadgets", gadget_kind, scope::namespaced);
  gadgets.state = plain_state;
  gadgets.on_demand_category = "gadgets";
  s.resources.push_back(std::move(gadgets));
  resource_def boxes = kind_resource("boxes", "Boxes", box_kind, scope::namespaced);
  boxes.state = plain_state;
  boxes.details = [](const cached_object&, const view_context& context, details_view& view) {
    view.blocks["gadgets"] = context.store.list(gadget_kind).size();
  };
  s.resources.push_back(std::move(boxes));
  s.categories.push_back(problem_category{"gadgets", "Gadgets", false});
  s.routes.push_back(
      section_route{"count", [](std::span<const std::string>, const view_context& context) -> route_answer {
                      return route_answer{200, json{{"gadgets", context.store.count(gadget_kind)}}, ""};
                    }});
  return s;
}

struct gadget_daemon {
  fixed_clock clock{testing::at("2026-12-06T12:00:00Z")};
  daemon_state state{[] {
                       std::vector<section> sections;
                       sections.push_back(gadget_section());
                       return sections;
                     }(),
                     clock};
  api_router router{state};
  std::vector<kind_key> asked;

  gadget_daemon() {
    testing::scripted_cluster::install(state).on_demand = [this](const kind_key& type) { asked.push_back(type); };
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("objects.yaml", R"(
apiVersion: example.com/v1
kind: Box
metadata: {name: b1, namespace: ns, uid: u1}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g1, namespace: ns, uid: u2}
)",
                     false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }

  api_response get(const std::string& target) { return router.handle({"GET", target, "", ""}); }
  long gadgets_asked() const { return std::count(asked.begin(), asked.end(), gadget_kind); }
};

}  // namespace

TEST_CASE("a view asks for the kinds read on demand that it read, undeclared", "[router][demand]") {
  gadget_daemon d;
  REQUIRE(d.get("/api/v1/gadgets/boxes/ns/b1").status == 200);
  CHECK(d.gadgets_asked() == 1);
  // Served again from the cache: asked again, so that the kind stays watched while it is shown.
  REQUIRE(d.get("/api/v1/gadgets/boxes/ns/b1").status == 200);
  CHECK(d.gadgets_asked() == 2);
  REQUIRE(d.get("/api/v1/gadgets/count").status == 200);
  CHECK(d.gadgets_asked() == 3);
  // The kind's own list reads it.
  REQUIRE(d.get("/api/v1/gadgets/gadgets").status == 200);
  CHECK(d.gadgets_asked() == 4);
  REQUIRE(d.get("/api/v1/gadgets/gadgets").status == 200);
  CHECK(d.gadgets_asked() == 5);
  // A view that does not read it does not ask; nor is a kind watched always ever asked for.
  d.asked.clear();
  REQUIRE(d.get("/api/v1/gadgets/boxes").status == 200);
  CHECK(d.asked.empty());
}
