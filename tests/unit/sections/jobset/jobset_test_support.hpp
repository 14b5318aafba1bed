#pragma once
// Helpers for the JobSet tests: views as the API builds them (the resource's summary and details,
// then every section's extensions), and marking lists complete as a synced cache is.
#include <stdexcept>
#include <string>
#include <vector>

#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_section.hpp"
#include "sections/registry.hpp"
#include "support/fixtures.hpp"

namespace sextant::jobset_test {

inline const std::vector<section>& sections() {
  static const std::vector<section> all = all_sections();
  return all;
}

inline const resource_def& jobsets_resource() {
  for (const section& s : sections()) {
    for (const resource_def& r : s.resources) {
      if (r.type == jobset::jobset_kind) {
        return r;
      }
    }
  }
  throw std::runtime_error("the jobset section is not registered");
}

// Summary fields, state, details blocks, links and notes of one JobSet, as one JSON object.
inline json view_of(const testing::fixture_cluster& cluster, const std::string& namespace_, const std::string& name) {
  object_ptr object = cluster.store.get(jobset::jobset_kind, namespace_, name);
  if (!object) {
    throw std::runtime_error("no JobSet " + namespace_ + "/" + name);
  }
  view_context context = cluster.context();
  const resource_def& resource = jobsets_resource();
  json out = json::object();
  object_state state = resource.state(*object, context);
  out["state"] = {{"label", state.label}, {"reason", state.reason}, {"message", state.message}};
  resource.summarize(*object, context, out);
  details_view view;
  resource.details(*object, context, view);
  for (const section& s : sections()) {
    for (const details_extension& extension : s.extensions) {
      if (extension.type == object->type) {
        extension.extend(*object, context, view);
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

inline std::string label_of(const testing::fixture_cluster& cluster, const std::string& namespace_,
                            const std::string& name) {
  return view_of(cluster, namespace_, name)["state"]["label"].get<std::string>();
}

// Jobs and pods read in full, as after a synced watch or a snapshot holding them.
inline void mark_children_read(testing::fixture_cluster& cluster) {
  for (const kind_key& type : {core::job_kind, core::pod_kind, jobset::jobset_kind}) {
    cluster.store.set_completeness(type, {list_completeness::state::complete, ""});
  }
}

inline bool has_note_containing(const json& view, const std::string& words) {
  for (const json& note : view["notes"]) {
    if (note.get<std::string>().find(words) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace sextant::jobset_test
