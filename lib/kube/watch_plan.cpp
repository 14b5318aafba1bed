#include "kube/watch_plan.hpp"

#include <algorithm>
#include <map>

namespace sextant::kube {

std::string watch_spec::name() const {
  return type.group.empty() ? plural : plural + "." + type.group;
}

bool watch_spec::same_watch(const watch_spec& other) const {
  return type == other.type && version == other.version && plural == other.plural &&
         label_selector == other.label_selector && cap == other.cap && demand_only == other.demand_only;
}

namespace {

// Whether the cluster serves one of the section's own kinds (of its own group).
bool serves_own_kind(const section& s, const served_kinds& served) {
  for (const resource_def& r : s.resources) {
    if (!r.type.kind.empty() && r.type.group == s.group && served.serves(r.type)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<watch_spec> plan_watches(const std::vector<section>& sections, const served_kinds& served) {
  struct merged {
    watch_spec spec;
    bool any_unselected = false;
    bool any_uncapped = false;
    bool any_undemanded = false;
  };
  std::map<kind_key, merged> by_kind;
  std::vector<kind_key> order;
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (r.type.kind.empty()) {
        continue;  // a computed page reads other kinds
      }
      const served_kind* kind = served.find(r.type);
      if (kind == nullptr || kind->versions.empty()) {
        continue;
      }
      // A kind of another group that a section shows beside its own (the GPU Operator's
      // DaemonSets) is watched only where the section's own kinds are served.
      if (!s.always_listed && r.type.group != s.group && !serves_own_kind(s, served)) {
        continue;
      }
      auto [it, inserted] = by_kind.try_emplace(r.type);
      merged& m = it->second;
      if (inserted) {
        order.push_back(r.type);
        m.spec.type = r.type;
        m.spec.version = choose_version(*kind, s.version_preference);
        m.spec.plural = kind->plural.empty() ? r.plural : kind->plural;
        m.spec.title = r.title;
        m.spec.namespaced = kind->namespaced;
        m.spec.label_selector = r.label_selector;
        m.spec.cap = r.cap;
      } else if (m.spec.label_selector != r.label_selector) {
        m.any_unselected = true;  // two selectors cannot be ORed: read everything
      }
      m.any_unselected = m.any_unselected || r.label_selector.empty();
      m.any_uncapped = m.any_uncapped || r.cap == 0;
      m.spec.cap = std::max(m.spec.cap, r.cap);
      if (r.on_demand_category.empty()) {
        m.any_undemanded = true;
      } else if (std::find(m.spec.demand_categories.begin(), m.spec.demand_categories.end(), r.on_demand_category) ==
                 m.spec.demand_categories.end()) {
        m.spec.demand_categories.push_back(r.on_demand_category);
      }
    }
  }
  // Kinds read but shown by no section: on demand only, in the server's preferred version.
  for (const section& s : sections) {
    for (const kind_key& type : s.reads_on_demand) {
      const served_kind* kind = served.find(type);
      if (kind == nullptr || kind->versions.empty() || kind->plural.empty() || by_kind.contains(type)) {
        continue;
      }
      merged& m = by_kind[type];
      order.push_back(type);
      m.spec.type = type;
      m.spec.version = choose_version(*kind, {});
      m.spec.plural = kind->plural;
      m.spec.title = type.kind + " objects";
      m.spec.namespaced = kind->namespaced;
      m.spec.demand_only = true;
      m.any_unselected = true;
      m.any_uncapped = true;
    }
  }
  std::vector<watch_spec> out;
  for (const kind_key& type : order) {
    merged& m = by_kind[type];
    if (m.any_unselected) {
      m.spec.label_selector.clear();
    }
    if (m.any_uncapped) {
      m.spec.cap = 0;
    }
    if (m.any_undemanded || m.spec.demand_only) {
      m.spec.demand_categories.clear();
    }
    out.push_back(std::move(m.spec));
  }
  return out;
}

}  // namespace sextant::kube
