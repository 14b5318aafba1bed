#include "runtime/watch_plan.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace sextant {

using kube::named_namespaces;
using kube::watch_spec;

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

// The title of the resource that shows a kind ("Cluster Policies"), for the words of a wait.
std::string title_of(const std::vector<section>& sections, const kind_key& type) {
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (r.type == type && !r.title.empty()) {
        return r.title;
      }
    }
  }
  return type.kind + " objects";
}

// Narrows a namespace-sourced watch to what its source names (see plan_watches).
void scope_to_source(watch_spec& spec, const namespace_source& source, const std::vector<section>& sections,
                     const named_namespaces& named) {
  if (!spec.namespaced || !named) {
    return;
  }
  spec.scoped_by = source;
  const std::string source_title = title_of(sections, source.type);
  std::optional<std::set<std::string>> namespaces = named(source);
  if (!namespaces) {
    spec.not_watched_because = "not watched yet: the " + source_title + " that name its namespace are not read in full";
  } else if (namespaces->empty()) {
    spec.not_watched_because = "not watched: none of the " + source_title + " names its namespace yet";
  } else if (namespaces->size() == 1) {
    spec.namespace_ = *namespaces->begin();
  }
}

}  // namespace

std::vector<watch_spec> plan_watches(const std::vector<section>& sections, const served_kinds& served,
                                     const named_namespaces& named) {
  struct merged {
    watch_spec spec;
    bool any_unselected = false;
    bool any_uncapped = false;
    bool any_undemanded = false;
    bool any_unscoped = false;
    std::optional<namespace_source> source;
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
      if (!r.namespace_from) {
        m.any_unscoped = true;
      } else if (!m.source) {
        m.source = r.namespace_from;
      } else if (m.source->type != r.namespace_from->type || m.source->field != r.namespace_from->field) {
        m.any_unscoped = true;  // two sources could name two namespaces: read them all
      }
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
      m.any_unscoped = true;
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
    if (!m.any_unscoped && m.source) {
      scope_to_source(m.spec, *m.source, sections, named);
    }
    out.push_back(std::move(m.spec));
  }
  return out;
}

kube::watch_planner watch_planner_for(std::vector<section> sections) {
  kube::watch_planner planner;
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (r.namespace_from) {
        planner.namespace_namers.insert(r.namespace_from->type);
      }
      if (!r.type.kind.empty()) {
        planner.resource_kinds.push_back(r.type);
      }
    }
    for (const problem_category& category : s.categories) {
      planner.category_defaults[category.id] = category.enabled_by_default;
    }
  }
  planner.plan = [sections = std::make_shared<const std::vector<section>>(std::move(sections))](
                     const served_kinds& served, const kube::named_namespaces& named) {
    return plan_watches(*sections, served, named);
  };
  return planner;
}

}  // namespace sextant
