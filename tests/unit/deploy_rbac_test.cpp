// The deployed ClusterRole must grant every kind a section watches, or the live daemon would
// show "cannot tell" where it should show objects. Adding a section fails here until
// deploy/rbac.yaml grants its kinds.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

TEST_CASE("deploy/rbac.yaml grants list and watch on every section's kinds, and nothing more than reads", "[deploy]") {
  auto documents = YAML::LoadAllFromFile((testing::source_dir() / "deploy/rbac.yaml").string());
  std::set<std::pair<std::string, std::string>> readable;  // (group, resource) with get+list+watch
  bool found_role = false;
  for (const YAML::Node& document : documents) {
    if (document["kind"].as<std::string>() != "ClusterRole") {
      continue;
    }
    found_role = true;
    for (const YAML::Node& rule : document["rules"]) {
      std::set<std::string> verbs;
      for (const YAML::Node& verb : rule["verbs"]) {
        verbs.insert(verb.as<std::string>());
        CHECK(
            (verb.as<std::string>() == "get" || verb.as<std::string>() == "list" || verb.as<std::string>() == "watch"));
      }
      if (!verbs.contains("list") || !verbs.contains("watch")) {
        continue;
      }
      for (const YAML::Node& group : rule["apiGroups"]) {
        for (const YAML::Node& resource : rule["resources"]) {
          readable.emplace(group.as<std::string>(), resource.as<std::string>());
        }
      }
    }
  }
  REQUIRE(found_role);
  for (const section& s : all_sections()) {
    for (const resource_def& r : s.resources) {
      if (r.type.kind.empty()) {
        continue;  // computed pages read other kinds
      }
      INFO("section " << s.id << " resource " << r.id);
      CHECK(readable.contains({r.type.group, r.plural.empty() ? r.id : r.plural}));
    }
  }
}
