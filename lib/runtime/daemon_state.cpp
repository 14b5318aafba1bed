#include "runtime/daemon_state.hpp"

#include <spdlog/spdlog.h>

#include "runtime/snapshot_cluster.hpp"
#include "runtime/watch_plan.hpp"
#include "util/masking/secrets.hpp"

namespace sextant {
namespace {

const std::string interpreter_failures_metric = "sextant_interpreter_failures_total";

}  // namespace

daemon_state::daemon_state(std::vector<section> sections, const clock& time_source)
    : catalog(std::move(sections)),
      profiles(catalog.profiles()),
      problems(catalog.categories(), catalog.rules()),
      time(time_source),
      source(std::make_unique<snapshot_cluster>()) {
  // Each pass judges only the objects changed since the last (at 150 000 Pods a whole pass took
  // about 290 ms of the loop per batch of changes).
  problems.follow(store);
  for (const auto& [type, profile] : profiles.all()) {
    for (const std::string& label : profile.indexed_labels) {
      store.index_label(type, label);
    }
  }
  metrics.describe(interpreter_failures_metric, metrics_registry::metric_type::counter,
                   "Interpreter calls that threw; the view showed what it could read, with a note.");
  problems.on_rule_failure([this](const problem_rule& rule, const cached_object& object, const std::string& error) {
    std::string owner;
    for (const section& s : catalog.sections()) {
      for (const problem_category& category : s.categories) {
        if (category.id == rule.category) {
          owner = s.id;
        }
      }
    }
    resource_match shown = catalog.resource_for_kind(rule.type);
    interpreter_failed(owner, shown.resource != nullptr ? shown.resource->id : rule.type.to_string(), "problem_rule",
                       rule.category + " on " + object.type.to_string() + " " + object.key() + ": " + error);
  });
}

daemon_state::~daemon_state() = default;

void daemon_state::interpreter_failed(const std::string& section, const std::string& resource,
                                      const std::string& interpreter, const std::string& what) {
  spdlog::error("{} {} of {}: {}", section, interpreter, resource, masking::operator_text(what));
  metrics.increment(interpreter_failures_metric,
                    {{"section", section}, {"resource", resource}, {"interpreter", interpreter}});
}

void daemon_state::settle_snapshot_lists(const std::set<kind_key>& listed) {
  std::set<kind_key> kinds;
  for (const section& s : catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty()) {
        kinds.insert(r.type);
      }
    }
    kinds.insert(s.reads_on_demand.begin(), s.reads_on_demand.end());
  }
  for (const kind_key& type : kinds) {
    // A cluster that serves the group serves the kind (one serving Resource Slices serves
    // claims), so its absence from the snapshot means it was not dumped, not that there are none.
    const bool group_served = !served.group_versions(type.group).empty();
    if (store.count(type) > 0 || listed.contains(type) || !group_served) {
      store.set_completeness(type, {list_completeness::state::complete, ""});
    } else {
      store.set_completeness(type,
                             {list_completeness::state::unreadable,
                              "not in the snapshot (it holds no " + type.kind + " and no " + type.kind + "List)"});
    }
  }
  // The live watches' caps, merged across sections the same way; a selected list would hold
  // only what its selector picks, which a snapshot cannot tell apart, so those are left whole.
  for (const kube::watch_spec& watch : plan_watches(catalog.sections(), served)) {
    if (watch.cap == 0 || !watch.label_selector.empty() || store.count(watch.type) <= watch.cap) {
      continue;
    }
    std::vector<object_ptr> kept = store.list(watch.type);
    spdlog::warn("snapshot holds {} {}; keeping the first {}, as a live list would", kept.size(), watch.title,
                 watch.cap);
    kept.resize(watch.cap);
    store.replace_all(watch.type, std::move(kept));
    store.set_completeness(watch.type, {list_completeness::state::truncated, cut_reason(watch.cap, watch.title)});
  }
}

void daemon_state::apply_settings(const std::map<std::string, bool>& from_home) {
  for (const auto& [id, on] : from_home) {
    if (!problems.has_category(id)) {
      spdlog::warn("{}: unknown problem category \"{}\" ignored", settings.path().string(), id);
    }
  }
  for (const problem_category& category : problems.categories()) {
    auto found = from_home.find(category.id);
    problems.set_enabled(category.id, found != from_home.end() ? found->second : category.enabled_by_default);
  }
}

std::optional<time_point> daemon_state::evaluate_problems() {
  return problems.evaluate(context());
}

}  // namespace sextant
