#pragma once
// What the live source is asked to watch, as plain data: one spec per kind, and the planner that
// makes them (runtime/watch_plan.hpp builds it from the sections). kube/ knows nothing of
// sections: it watches what the plan names, in the version and scope the plan chose.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/namespace_source.hpp"
#include "store/object.hpp"
#include "store/served_kinds.hpp"

namespace sextant::kube {

struct watch_spec {
  kind_key type;
  std::string version;
  std::string plural;
  std::string title;  // the resource's title ("Resource Slices"): how a cut list names it
  bool namespaced = true;
  std::string label_selector;  // empty: every object
  std::size_t cap = 0;         // 0: no cap
  // Watched only while one of these problem categories is on or someone asked for the kind;
  // empty: always watched.
  std::vector<std::string> demand_categories;
  // Watched only while someone asked for the kind (a kind read on demand that no section shows).
  bool demand_only = false;
  // Set: only this namespace's objects are watched (a kind whose namespace another object names).
  std::string namespace_;
  // Set when the kind is planned but must not be watched now, and why: its namespace is not
  // known yet. The kind's list then says this reason.
  std::string not_watched_because;
  // Where the namespace comes from, for a namespace-sourced kind.
  std::optional<namespace_source> scoped_by;

  // "workloads.kueue.x-k8s.io", "pods": the name in logs, metrics and /readyz.
  std::string name() const;
  bool same_watch(const watch_spec& other) const;
};

// The namespaces that objects of `source.type` name in `source.field`, or nullopt while that
// kind is not read in full (the live source answers from its store: namespaces_named).
using named_namespaces = std::function<std::optional<std::set<std::string>>(const namespace_source&)>;

// Everything the live source needs to know of what it serves, without knowing who asks.
struct watch_planner {
  // The watches wanted for what the cluster serves and what the cached objects name.
  std::function<std::vector<watch_spec>(const served_kinds&, const named_namespaces&)> plan;
  // Kinds whose objects name another kind's namespace: a change to one plans again at once.
  std::set<kind_key> namespace_namers;
  // The kinds the views read as their own: while the cluster does not serve one, its list is
  // known, and empty (a pod's claim on a cluster without ResourceClaims is not found).
  std::vector<kind_key> resource_kinds;
  // Each demand category's default, used until the problem settings are checked.
  std::map<std::string, bool> category_defaults;
};

}  // namespace sextant::kube
