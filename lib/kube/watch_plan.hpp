#pragma once
// Which watches the sections call for, given what the cluster serves: one per served kind
// that some section shows, in the version the section prefers, with the tightest selector and
// cap that still covers every section that reads the kind. Pure; recomputed after discovery.
#include <string>
#include <vector>

#include "sections/section.hpp"
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

  // "workloads.kueue.x-k8s.io", "pods": the name in logs, metrics and /readyz.
  std::string name() const;
  bool same_watch(const watch_spec& other) const;
};

// The version to read (store/served_kinds.hpp): links name the same one.
using sextant::choose_version;

std::vector<watch_spec> plan_watches(const std::vector<section>& sections, const served_kinds& served);

}  // namespace sextant::kube
