#pragma once
// Builders of Kueue objects for its tests: fixture files of tests/fixtures/kueue/ as whole
// objects, and small Workloads written from the v1beta1/v1beta2 Workload CRD schemas. The harness
// (views, loading, completeness) is every section's: support/section_views.hpp.
#include <string>
#include <vector>

#include "support/fixtures.hpp"
#include "support/section_views.hpp"
#include "util/json.hpp"

namespace sextant::kueue::testing {

inline const std::string v1beta2 = "kueue.x-k8s.io/v1beta2";
// The moment the tests' conditions were written; the clock is set from it.
inline const std::string t0 = "2026-11-29T10:00:00Z";

// A fixture's status as a whole object: the first document's `status` (a conditions list when
// it lists them directly under status) under the given identity.
json excerpt_object(const std::string& relative, const std::string& api_version, const std::string& kind,
                    const std::string& namespace_, const std::string& name);

// A Workload in `api_version` with the given conditions (YAML flow text) and extra status.
json workload(const std::string& api_version, const std::string& namespace_, const std::string& name,
              const std::string& queue, json conditions, json status_extra = json::object(),
              json spec_extra = json::object());

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, const std::string& at);

// An Active Cluster Queue "cluster-queue" and its Active Local Queue "user-queue" in "default", as
// Kueue reports them.
extern const char* const healthy_queues;

}  // namespace sextant::kueue::testing
