// The registry is the one list of sections: every folder under lib/sections/ must be in it, and
// what the sections declare must fit together (unique ids, each kind shown by one resource), or
// routes, links and watches would silently pick one of two owners.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

// Folders that hold helpers shared by sections, not a section.
const std::set<std::string> shared_folders = {"common"};

// A folder's section id: the folder name, with '_' for the '-' a C++ folder name avoids.
std::string folder_id(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// Every kind a section reads, with where: each must be watched, so owned by a resource.
std::vector<std::pair<kind_key, std::string>> kinds_referred(const section& s) {
  std::vector<std::pair<kind_key, std::string>> out;
  auto add_all = [&out](const std::vector<kind_key>& kinds, const std::string& where) {
    for (const kind_key& needed : kinds) {
      out.emplace_back(needed, where);
    }
  };
  for (const resource_def& r : s.resources) {
    add_all(r.made_of, s.id + "/" + r.id + " made_of");
    add_all(r.joins, s.id + "/" + r.id + " joins");
  }
  for (const problem_rule& rule : s.rules) {
    out.emplace_back(rule.type, s.id + " problem rule of " + rule.category);
  }
  // An extension's own kind may be one no section shows yet (Kueue's Queue block for JobSets
  // before the JobSet section exists): it applies once one does. What it reads must be watched.
  for (const details_extension& extension : s.extensions) {
    add_all(extension.made_of, s.id + " details extension made_of");
    add_all(extension.joins, s.id + " details extension joins");
  }
  for (const section_route& route : s.routes) {
    add_all(route.made_of, s.id + " route " + route.segment + " made_of");
    add_all(route.joins, s.id + " route " + route.segment + " joins");
  }
  for (const kind_reads& read : s.reads) {
    out.emplace_back(read.type, s.id + " reads of another section's kind");
  }
  for (const polled_document& document : s.documents) {
    out.emplace_back(document.of, s.id + " polled document " + document.id);
  }
  return out;
}

}  // namespace

TEST_CASE("every folder under lib/sections is a registered section, and every section has a folder", "[registry]") {
  std::set<std::string> registered;
  for (const section& s : all_sections()) {
    registered.insert(s.id);
  }
  std::set<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_dir() / "lib" / "sections")) {
    if (entry.is_directory() && !shared_folders.contains(entry.path().filename().string())) {
      folders.insert(folder_id(entry.path().filename().string()));
    }
  }
  REQUIRE(folders.size() >= 3);
  for (const std::string& folder : folders) {
    INFO("lib/sections/" << folder << " is not registered in lib/sections/registry.cpp");
    CHECK(registered.contains(folder));
  }
  for (const std::string& id : registered) {
    INFO("section " << id << " has no folder lib/sections/" << id);
    CHECK(folders.contains(id));
  }
}

TEST_CASE("section, resource and problem category ids are unique", "[registry]") {
  std::map<std::string, int> sections;
  std::map<std::string, std::string> categories;
  for (const section& s : all_sections()) {
    INFO("section " << s.id);
    CHECK(++sections[s.id] == 1);
    CHECK_FALSE(s.title.empty());
    std::set<std::string> resources;
    for (const resource_def& r : s.resources) {
      INFO("resource " << s.id << "/" << r.id);
      CHECK_FALSE(r.id.empty());
      CHECK(resources.insert(r.id).second);
      // A section's own route segment must not hide a resource of the same name.
      CHECK(std::none_of(s.routes.begin(), s.routes.end(),
                         [&r](const section_route& route) { return route.segment == r.id; }));
    }
    for (const problem_category& category : s.categories) {
      INFO("problem category " << category.id << " of " << s.id);
      CHECK(categories.emplace(category.id, s.id).second);
    }
  }
  for (const section& s : all_sections()) {
    for (const problem_rule& rule : s.rules) {
      INFO("a rule of " << s.id << " names category " << rule.category);
      CHECK(categories.contains(rule.category));
      CHECK(static_cast<bool>(rule.evaluate));
    }
  }
}

TEST_CASE("every kind is owned by exactly one resource, and every kind a section reads has an owner", "[registry]") {
  std::map<kind_key, std::vector<std::string>> owners;
  for (const section& s : all_sections()) {
    for (const resource_def& r : s.resources) {
      INFO("resource " << s.id << "/" << r.id);
      if (r.type.kind.empty()) {
        // A computed page has a list and nothing else.
        CHECK(static_cast<bool>(r.list_computed));
        CHECK_FALSE(r.profile.has_value());
        continue;
      }
      // A kind with no page (shown = false) has nothing to render either.
      CHECK(static_cast<bool>(r.state) == r.shown);
      if (!r.shown) {
        CHECK_FALSE(static_cast<bool>(r.summarize));
        CHECK_FALSE(static_cast<bool>(r.details));
      }
      CHECK_FALSE(static_cast<bool>(r.list_computed));
      CHECK_FALSE(r.plural.empty());
      owners[r.type].push_back(s.id + "/" + r.id);
    }
  }
  for (const auto& [type, shown_by] : owners) {
    const std::vector<std::string>& resources = shown_by;  // clang 14 cannot capture a binding
    INFO("kind " << type.to_string() << " is shown by " << resources.size() << " resources: " << [&] {
      std::string list;
      for (const std::string& r : resources) {
        list += (list.empty() ? "" : ", ") + r;
      }
      return list;
    }());
    CHECK(resources.size() == 1);
  }
  for (const section& s : all_sections()) {
    for (const auto& [type, where] : kinds_referred(s)) {
      INFO(where << " reads " << type.to_string() << ", which no registered resource owns");
      CHECK(owners.contains(type));
    }
  }
}
