#pragma once
// What discovery tells: the groups, versions and resources an API server serves, and the pure
// parsers of its documents (aggregated APIGroupDiscoveryList, APIGroupList, APIResourceList,
// /version). Kept apart from the requests in discovery.hpp so they can be tested and fuzzed
// without an event loop.
#include <string>
#include <vector>

#include "store/served_kinds.hpp"
#include "util/json.hpp"

namespace sextant::kube {

struct discovered_resource {
  std::string group;
  std::string version;
  std::string kind;
  std::string plural;
  bool namespaced = true;
  std::vector<std::string> verbs;

  bool can(const std::string& verb) const;
};

struct discovered_group {
  std::string name;                   // "" for the core group
  std::vector<std::string> versions;  // the server's preferred first
};

struct discovery_document {
  std::vector<discovered_group> groups;
  std::vector<discovered_resource> resources;  // top-level resources only, no subresources
  // Groups whose resources could not be read this time (a stale aggregated API, a failed
  // request): what was known of them before stays.
  std::vector<std::string> incomplete_groups;
  bool aggregated = false;
  int server_minor = 0;  // from /version, 0 when unknown
};

// The Accept header asking for aggregated discovery, with plain JSON as the fallback.
extern const char* const aggregated_discovery_accept;

// An APIGroupDiscoveryList (aggregated discovery), added to `into`.
void parse_aggregated_discovery(const json& list, discovery_document& into);
// An APIGroupList (/apis): groups and their versions, preferred first.
void parse_group_list(const json& list, discovery_document& into);
// An APIResourceList (/api/v1, /apis/<group>/<version>).
void parse_resource_list(const json& list, const std::string& group, const std::string& version,
                         discovery_document& into);
// The minor version from /version ("37", "37+"); 0 when it is missing or not a version number.
int parse_server_minor(const json& version);

// Replaces `served` with what the document says, keeping the kinds of incomplete groups as
// they were. Versions are listed in the group's preference order.
void apply_discovery(const discovery_document& document, served_kinds& served);

}  // namespace sextant::kube
