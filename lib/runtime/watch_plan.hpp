#pragma once
// Which watches the sections call for, given what the cluster serves: one per served kind
// that some section shows, in the version the section prefers, with the tightest selector and
// cap that still covers every section that reads the kind. Pure; recomputed after discovery.
// The live source (kube/) gets the result as plain watch specs through `watch_planner_for`.
#include <vector>

#include "kube/watch_spec.hpp"
#include "sections/section.hpp"
#include "store/served_kinds.hpp"

namespace sextant {

// Every served kind some section shows, then every served section::reads_on_demand kind none shows.
// A kind every section reads with one namespace source is watched in the one namespace it
// names; not at all while it names none or is not read in full; in every namespace when it names
// several (one watch cannot cover two). Without `named` (snapshot mode) it is read everywhere.
std::vector<kube::watch_spec> plan_watches(const std::vector<section>& sections, const served_kinds& served,
                                           const kube::named_namespaces& named = {});

// The sections' plan as the live source takes it: `plan_watches` over a copy of `sections`, the
// kinds that name namespaces, the sections' kinds and their demand categories' defaults.
kube::watch_planner watch_planner_for(std::vector<section> sections);

}  // namespace sextant
