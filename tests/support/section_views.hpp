#pragma once
// The harness every section's tests share: views as the API builds them from the registered
// sections, a store marked complete as a synced cache is, and fixture objects loaded as a
// snapshot loads them. Interpreters are called unguarded here, so a test sees what throws.
#include <string>
#include <vector>

#include "sections/section.hpp"
#include "support/fixtures.hpp"
#include "util/json.hpp"

namespace sextant::testing {

// Every registered section, in registry order.
const std::vector<section>& registered_sections();
// The resource that shows a kind, or null.
const resource_def* resource_for(const kind_key& type);
// A section's resource by id ("dra", "resourceclaims"); throws when there is none.
const resource_def& resource_of(const std::string& section_id, const std::string& resource_id);

// State, summary fields, details blocks, links and notes of one object, as one JSON object:
// the resource's own interpreters, then every section's extensions in registry order.
json view_of(const fixture_cluster& cluster, const cached_object& object);
json view_of(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
             const std::string& name);
object_state state_of(const fixture_cluster& cluster, const kind_key& type, const std::string& namespace_,
                      const std::string& name);

// Marks every registered kind's list as wholly read, as a finished snapshot or synced watches.
void mark_complete(fixture_cluster& cluster);

// Every document of a fixture file (tests/fixtures/<relative>, see its README) as JSON.
std::vector<json> upstream_documents(const std::string& relative);
// Loads objects into the cluster as one JSON list.
void load(fixture_cluster& cluster, const std::vector<json>& objects);

bool has_note_containing(const json& view, const std::string& fragment);
// The link with this rel to an object of this name, or null.
const json* link_with(const json& view, const std::string& rel, const std::string& name);
// The ids of a pod view's waiting reasons (waiting.reasons[].id).
std::vector<std::string> reason_ids(const json& view);

}  // namespace sextant::testing
