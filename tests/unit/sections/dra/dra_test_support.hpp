#pragma once
// Helpers for the DRA tests: views as the API builds them (the resource's details, then every
// section's extensions in registry order), and marking lists complete as a synced cache is.
#include <string>
#include <vector>

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/registry.hpp"
#include "support/fixtures.hpp"

namespace sextant::dra_test {

inline const std::vector<section>& sections() {
  static const std::vector<section> all = all_sections();
  return all;
}

inline const resource_def* resource_for(const kind_key& type) {
  for (const section& s : sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty() && r.type == type) {
        return &r;
      }
    }
  }
  return nullptr;
}

inline const resource_def& dra_resource(const std::string& id) {
  for (const section& s : sections()) {
    if (s.id != "dra") {
      continue;
    }
    for (const resource_def& r : s.resources) {
      if (r.id == id) {
        return r;
      }
    }
  }
  throw std::runtime_error("no dra resource " + id);
}

// Summary fields, state, details blocks, links and notes of one object, as one JSON object.
inline json view_of(const testing::fixture_cluster& cluster, const cached_object& object) {
  view_context context = cluster.context();
  const resource_def* resource = resource_for(object.type);
  json out = json::object();
  details_view view;
  if (resource != nullptr) {
    object_state state = resource->state(object, context);
    out["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
    if (resource->summarize) {
      resource->summarize(object, context, out);
    }
    if (resource->details) {
      resource->details(object, context, view);
    }
  }
  for (const section& s : sections()) {
    for (const details_extension& extension : s.extensions) {
      if (extension.type == object.type) {
        extension.extend(object, context, view);
      }
    }
  }
  for (auto& [key, block] : view.blocks.items()) {
    out[key] = block;
  }
  out["links"] = view.links;
  out["notes"] = view.notes;
  return out;
}

inline json view_of(const testing::fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
                    const std::string& name) {
  object_ptr object = cluster.store.get(type, namespace_, name);
  if (!object) {
    throw std::runtime_error("no object " + type.to_string() + " " + namespace_ + "/" + name);
  }
  return view_of(cluster, *object);
}

inline object_state state_of(const testing::fixture_cluster& cluster, const kind_key& type,
                             const std::string& namespace_, const std::string& name) {
  object_ptr object = cluster.store.get(type, namespace_, name);
  if (!object) {
    throw std::runtime_error("no object " + type.to_string() + " " + namespace_ + "/" + name);
  }
  return resource_for(type)->state(*object, cluster.context());
}

// Marks the lists a synced cache (or snapshot mode) holds in full.
inline void mark_complete(testing::fixture_cluster& cluster) {
  for (const kind_key& type : {dra::claim_kind, dra::template_kind, dra::device_class_kind, dra::slice_kind,
                               core::pod_kind, core::node_kind}) {
    cluster.store.set_completeness(type, {list_completeness::state::complete, ""});
  }
}

inline bool has_note_containing(const json& view, const std::string& fragment) {
  for (const json& note : view["notes"]) {
    if (note.get<std::string>().find(fragment) != std::string::npos) {
      return true;
    }
  }
  return false;
}

inline const json* link_with(const json& view, const std::string& rel, const std::string& name) {
  for (const json& link : view["links"]) {
    if (link["rel"] == rel && link["name"] == name) {
      return &link;
    }
  }
  return nullptr;
}

inline std::vector<std::string> reason_ids(const json& view) {
  std::vector<std::string> ids;
  if (view.contains("waiting") && view["waiting"].is_object()) {
    for (const json& reason : view["waiting"]["reasons"]) {
      ids.push_back(reason["id"].get<std::string>());
    }
  }
  return ids;
}

}  // namespace sextant::dra_test
