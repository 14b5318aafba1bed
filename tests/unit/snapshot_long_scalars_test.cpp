// Snapshot YAML is outside input: a plain scalar of any length is typed in time linear in it
// (issue 32: a 30 000-digit scalar overflowed std::regex's recursion and killed the daemon at
// start, with no log line).
#include <catch2/catch.hpp>

#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

struct loader_fixture {
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_report report;
  snapshot_loader loader{store, served, profiles, testing::at("2026-11-29T12:00:00Z")};
};

}  // namespace

TEST_CASE("a plain YAML scalar of 30 000 digits loads as text, beside the objects around it", "[loader][hostile]") {
  loader_fixture f;
  const std::string digits(30000, '7');
  const std::string float_like = "1." + std::string(30000, '5') + "e3";
  f.loader.load_text(
      "long.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: long, namespace: ml}\ndata:\n  digits: " + digits +
          "\n  float: " + float_like + "\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
      false, f.report);
  CHECK(f.report.errors.empty());
  CHECK(f.report.objects_loaded == 2);
  auto config = f.store.get({"", "ConfigMap"}, "ml", "long");
  REQUIRE(config);
  // No number a Kubernetes object holds is this long: it stays the text it was.
  CHECK(config->body()["data"]["digits"] == digits);
  CHECK(config->body()["data"]["float"] == float_like);
}

TEST_CASE("plain YAML scalars are still typed as YAML 1.2's core schema types them", "[loader]") {
  loader_fixture f;
  f.loader.load_text("numbers.yaml", R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: numbers, namespace: ml}
data:
  values: [1.5, -.5, +2., 3e4, 1.5E-3, "1.5", ., -., 1e, e3, 1.2.3, 0x1F, -7, .inf, -.Inf, 9223372036854775808]
)",
                     false, f.report);
  REQUIRE(f.report.errors.empty());
  auto config = f.store.get({"", "ConfigMap"}, "ml", "numbers");
  REQUIRE(config);
  const json values = config->body()["data"]["values"];
  CHECK(values[0] == 1.5);
  CHECK(values[1] == -0.5);
  CHECK(values[2] == 2.0);
  CHECK(values[3] == 30000.0);
  CHECK(values[4] == 0.0015);
  CHECK(values[5] == "1.5");
  CHECK(values[6] == ".");
  CHECK(values[7] == "-.");
  CHECK(values[8] == "1e");
  CHECK(values[9] == "e3");
  CHECK(values[10] == "1.2.3");
  CHECK(values[11] == 31);
  CHECK(values[12] == -7);
  CHECK(values[13].is_number());
  CHECK(values[14].is_number());
  CHECK(values[15].is_number());
}
