#pragma once
// Test helpers: load fixture files into a fresh store, as snapshot mode would, and build the
// view context interpreters take.
#include <filesystem>
#include <memory>
#include <string>

#include "ingest/ingest_profile.hpp"
#include "sections/section.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "store/object_store.hpp"
#include "store/served_kinds.hpp"

namespace sextant::testing {

std::filesystem::path source_dir();
// tests/fixtures/: the project's own test objects (tests/fixtures/README.md says how each was made).
std::filesystem::path fixtures_dir();
// tests/fixtures/<relative>. Upstream files (CRDs, k8s.io/api test data) come from their Go
// modules instead: support/upstream_files.hpp.
std::filesystem::path upstream(const std::string& relative);

// A store filled from YAML/JSON text or files, with the profiles of every registered section.
struct fixture_cluster {
  fixture_cluster();
  explicit fixture_cluster(time_point now);

  // Loads YAML (or JSON when `is_json`) text; fails the test on any load error.
  void load_yaml(const std::string& text);
  void load_json(const std::string& text);
  void load_file(const std::filesystem::path& path);

  object_ptr get(const std::string& group, const std::string& kind, const std::string& namespace_,
                 const std::string& name) const;
  view_context context() const;

  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  time_point now;
  snapshot_report last_report;
};

time_point at(const char* rfc3339);

}  // namespace sextant::testing
