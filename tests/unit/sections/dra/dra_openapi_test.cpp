// The OpenAPI fragment documents every field the DRA views write: each field of a demo view
// is declared in its schema, and each required field is there.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "sections/dra/dra_section.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "support/fixtures.hpp"
#include "unit/sections/dra/dra_test_support.hpp"

using namespace sextant;
using sextant::testing::at;
using sextant::testing::fixture_cluster;

namespace {

const json& schemas() {
  static const json loaded = yaml_to_json(YAML::LoadFile(
      (testing::source_dir() / "lib/sections/dra/openapi-fragment.yaml").string()))["components"]["schemas"];
  return loaded;
}

// Every member of `value` is a declared property, and every required property is present.
void check_documented(const json& value, const std::string& schema, const std::vector<std::string>& skip = {}) {
  INFO("schema " << schema);
  const json& declared = schemas()[schema];
  REQUIRE(declared.is_object());
  for (const auto& [key, member] : value.items()) {
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) {
      continue;
    }
    INFO("field " << key);
    CHECK(declared["properties"].contains(key));
  }
  if (declared.contains("required")) {
    for (const json& key : declared["required"]) {
      INFO("required field " << key);
      CHECK(value.contains(key.get<std::string>()));
    }
  }
}

fixture_cluster& demo() {
  static fixture_cluster cluster = [] {
    fixture_cluster loaded(at("2026-11-29T12:00:00Z"));
    loaded.load_file(testing::source_dir() / "examples" / "demo-cluster" / "dra");
    dra_test::mark_complete(loaded);
    return loaded;
  }();
  return cluster;
}

// The fields every summary and details answer share, documented in the base schemas.
const std::vector<std::string> common = {"state", "links", "notes"};

}  // namespace

TEST_CASE("the openapi fragment declares every field of the DRA views", "[dra][openapi]") {
  computed_list devices = dra::list_devices(demo().context());
  REQUIRE_FALSE(devices.items.empty());
  for (const json& row : devices.items) {
    check_documented(row, "DraDevice");
  }

  for (const object_ptr& claim : demo().store.list(dra::claim_kind)) {
    json view = dra_test::view_of(demo(), *claim);
    check_documented(view, "ResourceClaimView", common);
    for (const json& request : view["requests"]) {
      check_documented(request, "DraRequest");
      for (const json& alternative : request["firstAvailable"]) {
        check_documented(alternative, "DraAlternative");
      }
    }
    for (const json& config : view["config"]) {
      check_documented(config, "DraConfig");
    }
    if (view["allocation"].is_object()) {
      check_documented(view["allocation"], "DraAllocation");
      for (const json& device : view["allocation"]["devices"]) {
        check_documented(device, "DraAllocatedDevice");
      }
    }
  }
  for (const object_ptr& claim_template : demo().store.list(dra::template_kind)) {
    check_documented(dra_test::view_of(demo(), *claim_template), "ResourceClaimTemplateView", common);
  }
  for (const object_ptr& device_class : demo().store.list(dra::device_class_kind)) {
    check_documented(dra_test::view_of(demo(), *device_class), "DeviceClassView", common);
  }
  for (const object_ptr& slice : demo().store.list(dra::slice_kind)) {
    check_documented(dra_test::view_of(demo(), *slice), "ResourceSliceView", common);
  }
  for (const object_ptr& pod : demo().store.list(core::pod_kind)) {
    json view = dra_test::view_of(demo(), *pod);
    for (const json& claim : view["claims"]) {
      check_documented(claim, "PodDraClaim");
    }
    if (view["waiting"].is_object()) {
      for (const json& reason : view["waiting"]["reasons"]) {
        check_documented(reason, "DraReason");
        CHECK(std::find(schemas()["DraReason"]["properties"]["id"]["enum"].begin(),
                        schemas()["DraReason"]["properties"]["id"]["enum"].end(),
                        reason["id"]) != schemas()["DraReason"]["properties"]["id"]["enum"].end());
      }
    }
  }
}
