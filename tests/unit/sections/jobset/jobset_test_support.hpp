#pragma once
// JobSet shorthands over the shared section harness (tests/support/section_views.hpp): a JobSet
// by namespace and name, and marking only the lists a JobSet's details read as complete.
#include <string>
#include <vector>

#include "problems/problem_engine.hpp"
#include "sections/core/core_section.hpp"
#include "sections/jobset/jobset_section.hpp"
#include "support/fixtures.hpp"
#include "support/problems_harness.hpp"
#include "support/section_views.hpp"

namespace sextant::jobset_test {

using testing::has_note_containing;

// State, summary fields, details blocks, links and notes of one JobSet, as the API builds them.
inline json view_of(const testing::fixture_cluster& cluster, const std::string& namespace_, const std::string& name) {
  return testing::view_of(cluster, jobset::jobset_kind, namespace_, name);
}

inline std::string label_of(const testing::fixture_cluster& cluster, const std::string& namespace_,
                            const std::string& name) {
  return testing::state_of(cluster, jobset::jobset_kind, namespace_, name).label;
}

// Jobs and pods read in full, as after a synced watch or a snapshot holding them; the other
// kinds stay unread, so a test also sees what the views say while they are not known.
inline void mark_children_read(testing::fixture_cluster& cluster) {
  for (const kind_key& type : {core::job_kind, core::pod_kind, jobset::jobset_kind}) {
    cluster.store.set_completeness(type, {list_completeness::state::complete, ""});
  }
}

// The problem of the JobSet of that name, or nullptr.
inline const problem* problem_named(const std::vector<problem>& problems, const std::string& name) {
  return testing::problem_of(problems, jobset::jobset_kind, name);
}

}  // namespace sextant::jobset_test
