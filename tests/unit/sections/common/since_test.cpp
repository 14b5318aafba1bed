// The toolkit's "since when" policy: the object's own time, else the first sighting, said so.
#include "sections/common/since.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;
using sextant::testing::at;

TEST_CASE("since_blocks: the object's own time, else first sighting with the reason, else null", "[sections][since]") {
  SECTION("the object tells") {
    details_view view;
    since_blocks({at("2026-11-29T10:00:00Z"), ""}, view);
    CHECK(view.blocks["since"] == "2026-11-29T10:00:00Z");
    CHECK(view.blocks["sinceFrom"] == "the object");
    CHECK(view.notes.empty());
  }
  SECTION("it does not: the first sighting, and why, as a note") {
    details_view view;
    since_blocks({std::nullopt, "KubeRay v1.1 does not record it: since is when this daemon first saw it so."}, view);
    CHECK(view.blocks["since"].is_null());
    CHECK(view.blocks["sinceFrom"] == "first sighting");
    CHECK(view.notes == json::array({"KubeRay v1.1 does not record it: since is when this daemon first saw it so."}));
  }
  SECTION("neither is known") {
    details_view view;
    since_blocks({}, view);
    CHECK(view.blocks["since"].is_null());
    CHECK(view.blocks["sinceFrom"].is_null());
  }
}
