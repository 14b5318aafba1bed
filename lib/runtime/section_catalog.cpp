#include "runtime/section_catalog.hpp"

#include <algorithm>
#include <cctype>

#include "util/object_names.hpp"

namespace sextant {

section_catalog::section_catalog(std::vector<section> sections) : sections_(std::move(sections)) {
  // As the watch plan merges them: a kind any resource watches always is not read on demand,
  // even where another section lists it (the Queue section's Pods and Jobs).
  std::set<kind_key> always;
  for (const section& s : sections_) {
    for (const resource_def& r : s.resources) {
      if (r.type.kind.empty()) {
        continue;
      }
      (r.on_demand_category.empty() ? always : read_on_demand_).insert(r.type);
    }
    read_on_demand_.insert(s.reads_on_demand.begin(), s.reads_on_demand.end());
  }
  std::erase_if(read_on_demand_, [&](const kind_key& type) { return always.contains(type); });
}

const section* section_catalog::find_section(const std::string& id) const {
  for (const section& s : sections_) {
    if (s.id == id) {
      return &s;
    }
  }
  return nullptr;
}

resource_match section_catalog::find_resource(const std::string& section_id, const std::string& resource_id) const {
  const section* s = find_section(section_id);
  if (s == nullptr) {
    return {};
  }
  for (const resource_def& r : s->resources) {
    if (r.shown && r.id == resource_id) {
      return {s, &r};
    }
  }
  return {s, nullptr};
}

resource_match section_catalog::resource_for_kind(const kind_key& type) const {
  for (const section& s : sections_) {
    for (const resource_def& r : s.resources) {
      if (r.shown && !r.type.kind.empty() && r.type == type) {
        return {&s, &r};
      }
    }
  }
  return {};
}

bool section_catalog::listed(const section& s, const served_kinds& served) const {
  if (s.always_listed) {
    return true;
  }
  // Only the section's own kinds make it appear: the GPU Operator section also shows DaemonSets,
  // which every cluster serves.
  for (const resource_def& r : s.resources) {
    if (!r.type.kind.empty() && r.type.group == s.group && served.serves(r.type)) {
      return true;
    }
  }
  return false;
}

bool section_catalog::served(const section& s, const resource_def& r, const served_kinds& served) const {
  if (r.type.kind.empty()) {
    return listed(s, served);
  }
  if (s.always_listed) {
    return true;
  }
  // A kind of another group is served as part of the section only while the section is.
  return served.serves(r.type) && (r.type.group == s.group || listed(s, served));
}

std::optional<std::string> section_catalog::path_for(const kind_key& type, std::string_view namespace_,
                                                     std::string_view name, const served_kinds& served) const {
  resource_match match = resource_for_kind(type);
  if (match.resource == nullptr || !this->served(*match.owner, *match.resource, served)) {
    return std::nullopt;
  }
  // An object named as no API server would name one (a hand-made snapshot's) has no path: its
  // route would answer 400, or find another name once the path is decoded.
  if ((!namespace_.empty() && !valid_namespace(namespace_)) || !name_the_api_server_accepts(name)) {
    return std::nullopt;
  }
  std::string path = "/api/v1/" + match.owner->id + "/" + match.resource->id + "/";
  if (match.resource->namespaced && !namespace_.empty()) {
    path.append(namespace_).append("/");
  }
  return path.append(name);
}

std::string section_catalog::version_for(const kind_key& type, const served_kinds& served) const {
  resource_match match = resource_for_kind(type);
  static const std::vector<std::string> no_preference;
  const std::vector<std::string>& preference = match.owner ? match.owner->version_preference : no_preference;
  if (const served_kind* kind = served.find(type); kind != nullptr && !kind->versions.empty()) {
    return choose_version(*kind, preference);
  }
  // A snapshot may hold no object of a kind its cluster serves; live discovery lists every one.
  if (served.inferred()) {
    if (std::string version = choose_version(served.group_versions(type.group), preference); !version.empty()) {
      return version;
    }
  }
  return preference.empty() ? std::string() : preference.front();
}

std::string section_catalog::plural_for(const kind_key& type, const served_kinds& served) const {
  if (const served_kind* kind = served.find(type); kind != nullptr && !kind->plural.empty()) {
    return kind->plural;  // discovery's word; a snapshot's inferred kinds have none
  }
  for (const section& s : sections_) {
    for (const resource_def& resource : s.resources) {
      if (resource.type == type && !resource.plural.empty()) {
        return resource.plural;
      }
    }
  }
  // A kind neither served nor shown: the API's usual plural. Asked of the authorizer, a wrong
  // guess is denied, which hides rather than shows.
  std::string plural;
  for (char c : type.kind) {
    plural += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return plural + "s";
}

ingest_profiles section_catalog::profiles() const {
  ingest_profiles out;
  for (const section& s : sections_) {
    for (const resource_def& r : s.resources) {
      if (r.profile && !r.type.kind.empty()) {
        out.set(r.type, *r.profile);
      }
    }
  }
  // What sections read of kinds they do not own joins the owner's profile.
  for (const section& s : sections_) {
    for (const kind_reads& reads : s.reads) {
      ingest_profile& profile = out.edit(reads.type);
      for (const std::string& field : reads.fields) {
        profile.mask.keep(field);
      }
      for (const std::string& label : reads.indexed_labels) {
        if (std::find(profile.indexed_labels.begin(), profile.indexed_labels.end(), label) ==
            profile.indexed_labels.end()) {
          profile.indexed_labels.push_back(label);
        }
      }
    }
  }
  return out;
}

std::vector<problem_category> section_catalog::categories() const {
  std::vector<problem_category> out;
  for (const section& s : sections_) {
    out.insert(out.end(), s.categories.begin(), s.categories.end());
  }
  return out;
}

std::vector<problem_rule> section_catalog::rules() const {
  std::vector<problem_rule> out;
  for (const section& s : sections_) {
    out.insert(out.end(), s.rules.begin(), s.rules.end());
  }
  return out;
}

view_context section_catalog::context(const object_store& store, const served_kinds& served, time_point now,
                                      const polled_documents* documents) const {
  return view_context{store,
                      served,
                      now,
                      [this, &served](const kind_key& type, std::string_view namespace_, std::string_view name) {
                        return path_for(type, namespace_, name, served);
                      },
                      [this, &served](const kind_key& type) { return version_for(type, served); },
                      documents};
}

std::vector<polled_document> section_catalog::polled() const {
  std::vector<polled_document> out;
  for (const section& s : sections_) {
    out.insert(out.end(), s.documents.begin(), s.documents.end());
  }
  return out;
}

}  // namespace sextant
