#include "support/section_views.hpp"

#include <stdexcept>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "sections/registry.hpp"
#include "snapshot/yaml_to_json.hpp"

namespace sextant::testing {

const std::vector<section>& registered_sections() {
  static const std::vector<section> all = all_sections();
  return all;
}

const resource_def* resource_for(const kind_key& type) {
  for (const section& s : registered_sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty() && r.type == type) {
        return &r;
      }
    }
  }
  return nullptr;
}

const resource_def& resource_of(const std::string& section_id, const std::string& resource_id) {
  for (const section& s : registered_sections()) {
    for (const resource_def& r : s.resources) {
      if (s.id == section_id && r.id == resource_id) {
        return r;
      }
    }
  }
  throw std::runtime_error("no resource " + section_id + "/" + resource_id);
}

json view_of(const fixture_cluster& cluster, const cached_object& object) {
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
  for (const section& s : registered_sections()) {
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

namespace {

object_ptr require_object(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
                          const std::string& name) {
  object_ptr object = cluster.store.get(type, namespace_, name);
  if (!object) {
    throw std::runtime_error("no object " + type.to_string() + " " + namespace_ + "/" + name);
  }
  return object;
}

}  // namespace

json view_of(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
             const std::string& name) {
  return view_of(cluster, *require_object(cluster, type, namespace_, name));
}

object_state state_of(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
                      const std::string& name) {
  return resource_for(type)->state(*require_object(cluster, type, namespace_, name), cluster.context());
}

void mark_complete(fixture_cluster& cluster) {
  for (const section& s : registered_sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty()) {
        cluster.store.set_completeness(r.type, {list_completeness::state::complete, ""});
      }
    }
  }
}

std::vector<json> upstream_documents(const std::string& relative) {
  std::vector<json> out;
  for (const YAML::Node& node : YAML::LoadAllFromFile(upstream(relative).string())) {
    if (node && !node.IsNull()) {
      out.push_back(yaml_to_json(node));
    }
  }
  REQUIRE(!out.empty());
  return out;
}

void load(fixture_cluster& cluster, const std::vector<json>& objects) {
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", objects}};
  cluster.load_json(list.dump());
}

bool has_note_containing(const json& view, const std::string& fragment) {
  for (const json& note : view["notes"]) {
    if (note.get<std::string>().find(fragment) != std::string::npos) {
      return true;
    }
  }
  return false;
}

const json* link_with(const json& view, const std::string& rel, const std::string& name) {
  for (const json& link : view["links"]) {
    if (link["rel"] == rel && link["name"] == name) {
      return &link;
    }
  }
  return nullptr;
}

std::vector<std::string> reason_ids(const json& view) {
  std::vector<std::string> ids;
  if (view.contains("waiting") && view["waiting"].is_object()) {
    for (const json& reason : view["waiting"]["reasons"]) {
      ids.push_back(reason["id"].get<std::string>());
    }
  }
  return ids;
}

}  // namespace sextant::testing
