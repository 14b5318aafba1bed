// The deployed ClusterRole grants exactly what the daemon reads: every kind a section watches
// (or the live daemon would show "cannot tell" where it should show objects), and nothing that
// no section reads (least privilege). Adding a section fails here until deploy/rbac.yaml grants
// its kinds; removing one fails until its grant goes.
#include <cctype>
#include <set>
#include <tuple>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "auth/kube_reviews.hpp"
#include "sections/registry.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

// The (group, resource) of a review path, /apis/<group>/<version>/<resource>: what the caller
// checks create, and the one verb beyond reading the ClusterRole grants.
std::pair<std::string, std::string> review_resource(std::string_view path) {
  path.remove_prefix(std::string_view("/apis/").size());
  const std::size_t slash = path.find('/');
  return {std::string(path.substr(0, slash)), std::string(path.substr(path.rfind('/') + 1))};
}

bool is_review(const std::string& group, const std::string& resource) {
  return std::pair(group, resource) == review_resource(token_review_path) ||
         std::pair(group, resource) == review_resource(access_review_path);
}

}  // namespace

TEST_CASE("deploy/rbac.yaml grants list and watch on every section's kinds, and nothing more than reads", "[deploy]") {
  auto documents = YAML::LoadAllFromFile((testing::source_dir() / "deploy/rbac.yaml").string());
  std::set<std::pair<std::string, std::string>> readable;  // (group, resource) with get+list+watch
  std::set<std::pair<std::string, std::string>> created;   // the reviews the caller checks ask for
  bool found_role = false;
  for (const YAML::Node& document : documents) {
    if (document["kind"].as<std::string>() != "ClusterRole") {
      continue;
    }
    found_role = true;
    for (const YAML::Node& rule : document["rules"]) {
      std::set<std::string> verbs;
      const bool reviews = rule["resources"].size() == 1 && rule["apiGroups"].size() == 1 &&
                           is_review(rule["apiGroups"][0].as<std::string>(), rule["resources"][0].as<std::string>());
      for (const YAML::Node& verb : rule["verbs"]) {
        verbs.insert(verb.as<std::string>());
        INFO("verb " << verb.as<std::string>());
        // Reading verbs only, but for `create` on the reviews alone (caller checks).
        CHECK((verb.as<std::string>() == "get" || verb.as<std::string>() == "list" ||
               verb.as<std::string>() == "watch" || (reviews && verb.as<std::string>() == "create")));
      }
      if (reviews && verbs == std::set<std::string>{"create"}) {
        created.emplace(rule["apiGroups"][0].as<std::string>(), rule["resources"][0].as<std::string>());
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
  CHECK(created == std::set<std::pair<std::string, std::string>>{review_resource(token_review_path),
                                                                 review_resource(access_review_path)});
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

namespace {

// The API's resource name of a kind: the resource that shows it, else the lower-case plural the
// API gives kinds it names regularly (PyTorchJob -> pytorchjobs), as discovery would say.
std::string plural_of(const kind_key& type, const std::vector<section>& sections) {
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (r.type == type) {
        return r.plural.empty() ? r.id : r.plural;
      }
    }
  }
  std::string lower;
  for (char c : type.kind) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return lower + "s";
}

// Every (group, resource) the daemon reads: the kinds sections show, what they read of other
// sections' kinds, the kinds they read on demand that no resource shows, and the documents
// polled beside them (as resource/subresource).
std::set<std::pair<std::string, std::string>> resources_read(const std::vector<section>& sections) {
  std::set<std::pair<std::string, std::string>> read;
  auto add = [&](const kind_key& type) { read.emplace(type.group, plural_of(type, sections)); };
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty()) {
        add(r.type);
      }
    }
    for (const kind_reads& reads : s.reads) {
      add(reads.type);
    }
    for (const kind_key& type : s.reads_on_demand) {
      add(type);
    }
    for (const polled_document& document : s.documents) {
      read.emplace(document.group, document.resource + "/" + document.subresource);
    }
    for (const streaming_route& stream : s.streams) {
      read.emplace(stream.reads.group, stream.reads.resource);
    }
  }
  // Not read but created: the reviews of --auth=kubernetes (checked for `create` alone above).
  read.insert(review_resource(token_review_path));
  read.insert(review_resource(access_review_path));
  return read;
}

}  // namespace

TEST_CASE("deploy/rbac.yaml grants nothing that no section reads", "[deploy]") {
  const std::vector<section> sections = all_sections();
  const auto read = resources_read(sections);
  auto documents = YAML::LoadAllFromFile((testing::source_dir() / "deploy/rbac.yaml").string());
  for (const YAML::Node& document : documents) {
    if (document["kind"].as<std::string>() != "ClusterRole") {
      continue;
    }
    for (const YAML::Node& rule : document["rules"]) {
      for (const YAML::Node& group : rule["apiGroups"]) {
        for (const YAML::Node& resource : rule["resources"]) {
          std::pair<std::string, std::string> granted{group.as<std::string>(), resource.as<std::string>()};
          INFO("granted: " << granted.first << "/" << granted.second);
          CHECK(read.contains(granted));
        }
      }
    }
  }
}

TEST_CASE("deploy/rbac.yaml grants what each streaming route reads from the cluster (pods/log get)", "[deploy]") {
  std::set<std::tuple<std::string, std::string, std::string>> granted;  // group, resource, verb
  for (const YAML::Node& document : YAML::LoadAllFromFile((testing::source_dir() / "deploy/rbac.yaml").string())) {
    if (document["kind"].as<std::string>() != "ClusterRole") {
      continue;
    }
    for (const YAML::Node& rule : document["rules"]) {
      for (const YAML::Node& group : rule["apiGroups"]) {
        for (const YAML::Node& resource : rule["resources"]) {
          for (const YAML::Node& verb : rule["verbs"]) {
            granted.emplace(group.as<std::string>(), resource.as<std::string>(), verb.as<std::string>());
          }
        }
      }
    }
  }
  std::size_t streams = 0;
  for (const section& s : all_sections()) {
    for (const streaming_route& stream : s.streams) {
      ++streams;
      INFO("section " << s.id << " stream " << stream.resource << "/" << stream.segment);
      CHECK(granted.contains({stream.reads.group, stream.reads.resource, stream.reads.verb}));
    }
  }
  CHECK(streams > 0);  // the KubeRay logs routes, at least
  CHECK(granted.contains({"", "pods/log", "get"}));
}
