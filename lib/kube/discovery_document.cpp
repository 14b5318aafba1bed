#include "kube/discovery_document.hpp"

#include <algorithm>
#include <map>

namespace sextant::kube {

const char* const aggregated_discovery_accept =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

namespace {

std::vector<std::string> strings_of(const json& array) {
  std::vector<std::string> out;
  if (array.is_array()) {
    for (const json& item : array) {
      if (item.is_string()) {
        out.push_back(item.get<std::string>());
      }
    }
  }
  return out;
}

discovered_group& group_entry(discovery_document& into, const std::string& name) {
  for (discovered_group& group : into.groups) {
    if (group.name == name) {
      return group;
    }
  }
  into.groups.push_back(discovered_group{name, {}});
  return into.groups.back();
}

void add_version(discovered_group& group, const std::string& version) {
  if (std::find(group.versions.begin(), group.versions.end(), version) == group.versions.end()) {
    group.versions.push_back(version);
  }
}

}  // namespace

bool discovered_resource::can(const std::string& verb) const {
  return std::find(verbs.begin(), verbs.end(), verb) != verbs.end();
}

void parse_aggregated_discovery(const json& list, discovery_document& into) {
  into.aggregated = true;
  for (const json& item : array_or_empty(list, {"items"})) {
    const std::string group_name = string_or(item, {"metadata", "name"});
    discovered_group& group = group_entry(into, group_name);
    bool stale = false;
    for (const json& version : array_or_empty(item, {"versions"})) {
      const std::string version_name = string_or(version, {"version"});
      if (version_name.empty()) {
        continue;
      }
      add_version(group, version_name);
      if (string_or(version, {"freshness"}) == "Stale") {
        stale = true;  // an aggregated API that did not answer: its resources are unknown
      }
      for (const json& resource : array_or_empty(version, {"resources"})) {
        discovered_resource out;
        out.plural = string_or(resource, {"resource"});
        out.kind = string_or(resource, {"responseKind", "kind"});
        out.group = group_name;
        out.version = version_name;
        out.namespaced = string_or(resource, {"scope"}) == "Namespaced";
        if (const json* verbs = find(resource, {"verbs"})) {
          out.verbs = strings_of(*verbs);
        }
        // Subresources are listed apart; a resource answering with another group's kind is
        // not where that kind lives.
        // (An empty responseKind group or version means the resource's own, as built-in groups write it.)
        const std::string response_group = string_or(resource, {"responseKind", "group"});
        if (out.plural.empty() || out.kind.empty() || out.plural.find('/') != std::string::npos ||
            (!response_group.empty() && response_group != group_name)) {
          continue;
        }
        into.resources.push_back(std::move(out));
      }
    }
    if (stale) {
      into.incomplete_groups.push_back(group_name);
    }
  }
}

void parse_group_list(const json& list, discovery_document& into) {
  for (const json& item : array_or_empty(list, {"groups"})) {
    const std::string name = string_or(item, {"name"});
    if (name.empty()) {
      continue;
    }
    discovered_group& group = group_entry(into, name);
    if (auto preferred = get_string(item, {"preferredVersion", "version"})) {
      add_version(group, *preferred);
    }
    for (const json& version : array_or_empty(item, {"versions"})) {
      if (auto v = get_string(version, {"version"})) {
        add_version(group, *v);
      }
    }
  }
}

void parse_resource_list(const json& list, const std::string& group, const std::string& version,
                         discovery_document& into) {
  add_version(group_entry(into, group), version);
  for (const json& resource : array_or_empty(list, {"resources"})) {
    discovered_resource out;
    out.group = group;
    out.version = version;
    out.plural = string_or(resource, {"name"});
    out.kind = string_or(resource, {"kind"});
    out.namespaced = get_bool(resource, {"namespaced"}).value_or(false);
    if (const json* verbs = find(resource, {"verbs"})) {
      out.verbs = strings_of(*verbs);
    }
    // Subresources ("pods/status") and resources served as another group's kind are skipped.
    if (out.plural.empty() || out.kind.empty() || out.plural.find('/') != std::string::npos) {
      continue;
    }
    if (auto other_group = get_string(resource, {"group"});
        other_group && !other_group->empty() && *other_group != group) {
      continue;
    }
    into.resources.push_back(std::move(out));
  }
}

int parse_server_minor(const json& version) {
  std::string minor = string_or(version, {"minor"});
  // No Kubernetes minor has more than a few digits: a longer number is not one (and would
  // overflow), so it reads as unknown, as a missing one does.
  constexpr int longest = 4;
  int value = 0;
  int digits = 0;
  for (char c : minor) {
    if (c < '0' || c > '9') {
      break;
    }
    if (++digits > longest) {
      return 0;
    }
    value = value * 10 + (c - '0');
  }
  return value;
}

void apply_discovery(const discovery_document& document, served_kinds& served) {
  std::vector<served_kind> kept;
  for (const std::string& group : document.incomplete_groups) {
    for (const served_kind& kind : served.all()) {
      if (kind.type.group == group) {
        kept.push_back(kind);
      }
    }
  }
  served.clear();
  std::map<std::string, const discovered_group*> groups;
  for (const discovered_group& group : document.groups) {
    groups[group.name] = &group;
  }
  // Add resources group by group in each group's version preference, so that every kind's
  // versions come out preferred first.
  for (const discovered_group& group : document.groups) {
    for (const std::string& version : group.versions) {
      for (const discovered_resource& resource : document.resources) {
        if (resource.group != group.name || resource.version != version) {
          continue;
        }
        served.add(served_kind{
            kind_key{resource.group, resource.kind}, resource.plural, resource.namespaced, {resource.version}});
      }
    }
  }
  for (served_kind& kind : kept) {
    if (!served.serves(kind.type)) {
      served.add(std::move(kind));
    }
  }
  served.set_unanswered({document.incomplete_groups.begin(), document.incomplete_groups.end()});
}

}  // namespace sextant::kube
