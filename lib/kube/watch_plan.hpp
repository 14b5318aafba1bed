#pragma once
// Which watches the sections call for, given what the cluster serves: one per served kind
// that some section shows, in the version the section prefers, with the tightest selector and
// cap that still covers every section that reads the kind. Pure; recomputed after discovery.
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sections/section.hpp"
#include "store/object_store.hpp"
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
  // Watched only while someone asked for the kind (a section::reads_on_demand kind).
  bool demand_only = false;
  // Set: only this namespace's objects are watched (a resource_def::namespace_from kind).
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

// The version to read (store/served_kinds.hpp): links name the same one.
using sextant::choose_version;

// The namespaces that objects of `source.type` name in `source.field`, or nullopt while that
// kind is not read in full (so what it names is not known).
using named_namespaces = std::function<std::optional<std::set<std::string>>(const namespace_source&)>;

// What the store's objects name: the live source's `named_namespaces`. A name that is not a
// namespace name (a DNS label) is not taken, so an object cannot steer a watch's path.
std::optional<std::set<std::string>> namespaces_named(const object_store& store, const namespace_source& source);

// Every served kind some section shows, then every served section::reads_on_demand kind none shows.
// A kind every section reads with one namespace source is watched in the one namespace it
// names; not at all while it names none or is not read in full; in every namespace when it names
// several (one watch cannot cover two). Without `named` (snapshot mode) it is read everywhere.
std::vector<watch_spec> plan_watches(const std::vector<section>& sections, const served_kinds& served,
                                     const named_namespaces& named = {});

}  // namespace sextant::kube
