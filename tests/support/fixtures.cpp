#include "support/fixtures.hpp"

#include <catch2/catch.hpp>

#include "runtime/section_catalog.hpp"
#include "sections/registry.hpp"

namespace sextant::testing {
namespace {

const section_catalog& catalog() {
  static const section_catalog instance(all_sections());
  return instance;
}

void require_clean(const snapshot_report& report) {
  for (const load_problem& error : report.errors) {
    FAIL_CHECK(error.path << ":" << error.line << ": " << error.message);
  }
  REQUIRE(report.errors.empty());
}

}  // namespace

std::filesystem::path source_dir() {
  return SEXTANT_SOURCE_DIR;
}
std::filesystem::path fixtures_dir() {
  return source_dir() / "tests" / "fixtures";
}
std::filesystem::path upstream(const std::string& relative) {
  return fixtures_dir() / relative;
}

time_point at(const char* rfc3339) {
  auto parsed = parse_rfc3339(rfc3339);
  REQUIRE(parsed.has_value());
  return *parsed;
}

fixture_cluster::fixture_cluster() : fixture_cluster(at("2026-11-29T12:00:00Z")) {}

fixture_cluster::fixture_cluster(time_point at_time) : profiles(catalog().profiles()), now(at_time) {
  for (const auto& [type, profile] : profiles.all()) {
    for (const std::string& label : profile.indexed_labels) {
      store.index_label(type, label);
    }
  }
}

void fixture_cluster::load_yaml(const std::string& text) {
  snapshot_loader loader(store, served, profiles, now);
  last_report = {};
  loader.load_text("fixture.yaml", text, false, last_report);
  require_clean(last_report);
}

void fixture_cluster::load_json(const std::string& text) {
  snapshot_loader loader(store, served, profiles, now);
  last_report = {};
  loader.load_text("fixture.json", text, true, last_report);
  require_clean(last_report);
}

void fixture_cluster::load_file(const std::filesystem::path& path) {
  snapshot_loader loader(store, served, profiles, now);
  last_report = loader.load(path);
  require_clean(last_report);
}

object_ptr fixture_cluster::get(const std::string& group, const std::string& kind, const std::string& namespace_,
                                const std::string& name) const {
  return store.get(kind_key{group, kind}, namespace_, name);
}

view_context fixture_cluster::context() const {
  return catalog().context(store, served, now);
}

}  // namespace sextant::testing
