#pragma once
// Helpers for the Kueue tests: the fixture files of tests/fixtures/kueue/ as objects, and small
// Workload builders written from the v1beta1/v1beta2 Workload CRD schemas.
#include <string>
#include <vector>

#include "support/fixtures.hpp"
#include "util/json.hpp"

namespace sextant::kueue::testing {

// Every document of a fixture file (tests/fixtures/<relative>, see its README) as JSON.
std::vector<json> upstream_documents(const std::string& relative);

// A fixture's status as a whole object: the first document's `status` (a conditions list when
// it lists them directly under status) under the given identity.
json excerpt_object(const std::string& relative, const std::string& api_version, const std::string& kind,
                    const std::string& namespace_, const std::string& name);

// Loads objects into the cluster as a JSON list.
void load(sextant::testing::fixture_cluster& cluster, const std::vector<json>& objects);

// Marks the kinds the waiting lists and queue lookups read as wholly read, as a finished
// snapshot or a synced watch would.
void mark_complete(sextant::testing::fixture_cluster& cluster);

// A Workload in `api_version` with the given conditions (YAML flow text) and extra status.
json workload(const std::string& api_version, const std::string& namespace_, const std::string& name,
              const std::string& queue, json conditions, json status_extra = json::object(),
              json spec_extra = json::object());

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, const std::string& at);

}  // namespace sextant::kueue::testing
