#include "kube/live_source.hpp"

#include <set>

#include <spdlog/spdlog.h>

#include "kube/api_lister_watcher.hpp"
#include "kube/backoff.hpp"
#include "kube/discovery.hpp"
#include "kube/vanished_kinds.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant::kube {
namespace {

constexpr const char* cache_objects_metric = "sextant_watch_cache_objects";
constexpr const char* synced_metric = "sextant_watch_synced";
constexpr const char* forbidden_metric = "sextant_watch_forbidden";
// How often on-demand watches are checked for expiry when nothing else wakes the loop.
constexpr auto sweep_interval = std::chrono::seconds(15);

}  // namespace

live_source::live_source(net::any_io_executor executor, connection_config config, watch_planner planner,
                         ingest_profiles profiles, object_store& store, served_kinds& served, metrics_registry& metrics,
                         const clock& wall, live_options options)
    : executor_(executor),
      planner_(std::move(planner)),
      profiles_(std::move(profiles)),
      store_(store),
      served_(served),
      metrics_(metrics),
      wall_(wall),
      options_(options),
      client_(executor, std::move(config), metrics, wall, options.credentials),
      decoder_(profiles_),
      wake_timer_(executor) {
  reflector_metrics::describe(metrics_);
  metrics_.describe(cache_objects_metric, metrics_registry::metric_type::gauge, "Objects cached per watched resource.");
  metrics_.describe(synced_metric, metrics_registry::metric_type::gauge,
                    "Whether a watched resource has completed its first list (1) or not yet (0).");
  metrics_.describe(forbidden_metric, metrics_registry::metric_type::gauge,
                    "Whether the API server forbids reading a watched resource (1): synced, but nothing is known.");
  std::weak_ptr<bool> alive = alive_;
  // A change to what names a watched kind's namespace (a Cluster Policy's status.namespace) can
  // move that watch: plan again now, not at the next sweep.
  const std::set<kind_key>& namers = planner_.namespace_namers;
  if (!namers.empty()) {
    store_.add_listener([this, alive, namers](const object_store::change& change) {
      if (alive.lock() && namers.contains(change.object->type)) {
        wake();
      }
    });
    store_.add_completeness_listener([this, alive, namers](const kind_key& type) {
      if (alive.lock() && namers.contains(type)) {
        wake();
      }
    });
  }
  metrics_.add_collector([this, alive](metrics_registry& registry) {
    if (alive.lock()) {
      collect(registry);
    }
  });
}

live_source::~live_source() {
  *alive_ = false;
  stop();
}

std::string live_source::init() {
  return client_.init();
}

void live_source::start() {
  if (started_) {
    return;
  }
  started_ = true;
  spdlog::info("live: connecting to {} ({})", client_.config().server.authority(), client_.config().source);
  spawn_supervised(
      executor_, "live-source", [this, alive = alive_] { return supervise(this, alive); }, on_task_failure::restart);
}

void live_source::stop() {
  if (stopped_) {
    return;
  }
  stopped_ = true;
  std::vector<kind_key> types;
  for (const auto& [type, r] : running_) {
    types.push_back(type);
  }
  if (!types.empty()) {
    spdlog::info("live: stopping {} watches", types.size());
  }
  for (const kind_key& type : types) {
    stop_watch(type, false, true);
  }
  wake();
  if (!started_) {
    finished_ = true;
  }
}

void live_source::set_category_check(std::function<bool(const std::string&)> enabled) {
  category_enabled_ = std::move(enabled);
}

void live_source::categories_changed() {
  if (started_ && !stopped_ && discovered_) {
    reconcile();
  }
}

void live_source::demand(const kind_key& type) {
  demanded_[type] = std::chrono::steady_clock::now();
  if (started_ && !stopped_ && discovered_ && !running_.contains(type)) {
    reconcile();
  }
}

void live_source::rediscover() {
  rediscover_requested_ = true;
  wake();
}

void live_source::wake() {
  wake_requested_ = true;
  wake_timer_.cancel();
}

std::vector<std::string> live_source::readiness() const {
  std::vector<std::string> waiting;
  if (!discovered_) {
    waiting.push_back("discovery");
  }
  for (const auto& [type, r] : running_) {
    if (!r.watch->synced() && !r.replaces_synced) {
      waiting.push_back(r.spec.name());
    }
  }
  // A kind held until its namespace is known waits while what names it is being read, and
  // while the plan has not yet caught up with a namespace just named.
  for (const auto& [type, spec] : held_) {
    const namespace_source& source = *spec.scoped_by;
    const std::optional<std::set<std::string>> named = namespaces_named(store_, source);
    if (store_.completeness(source.type).value == list_completeness::state::not_synced || (named && !named->empty())) {
      waiting.push_back(spec.name());
    }
  }
  return waiting;
}

std::vector<std::string> live_source::forbidden() const {
  std::vector<std::string> out;
  for (const auto& [type, r] : running_) {
    const list_completeness completeness = store_.completeness(type);
    if (completeness.value == list_completeness::state::unreadable && completeness.reason.starts_with("forbidden")) {
      out.push_back(r.spec.name());
    }
  }
  return out;
}

std::map<std::string, std::string> live_source::watches() const {
  std::map<std::string, std::string> out;
  for (const auto& [type, r] : running_) {
    out[r.spec.name()] = r.spec.version;
  }
  return out;
}

const reflector* live_source::find_watch(const kind_key& type) const {
  auto it = running_.find(type);
  return it == running_.end() ? nullptr : it->second.watch.get();
}

bool live_source::wanted(const watch_spec& spec, std::chrono::steady_clock::time_point now) const {
  if (spec.demand_only) {
    auto asked = demanded_.find(spec.type);
    return asked != demanded_.end() && now - asked->second < options_.demand_ttl;
  }
  if (spec.demand_categories.empty()) {
    return true;
  }
  for (const std::string& category : spec.demand_categories) {
    bool on = false;
    if (category_enabled_) {
      on = category_enabled_(category);
    } else if (auto it = planner_.category_defaults.find(category); it != planner_.category_defaults.end()) {
      on = it->second;
    }
    if (on) {
      return true;
    }
  }
  auto asked = demanded_.find(spec.type);
  return asked != demanded_.end() && now - asked->second < options_.demand_ttl;
}

void live_source::start_watch(const watch_spec& spec, bool replaces_synced) {
  resource_target target{spec.type, spec.version, spec.plural, spec.label_selector, spec.namespace_};
  auto source = std::make_unique<api_lister_watcher>(client_, decoder_, target);
  reflector_options options = options_.reflector;
  options.cap = spec.cap;
  options.cap_noun = spec.title;  // the words the section's own cut uses in snapshot mode
  options.streaming_list = options_.streaming_lists && server_minor_ >= options_.streaming_min_minor;
  std::weak_ptr<bool> alive = alive_;
  auto watch = std::make_shared<reflector>(executor_, spec.type, spec.name(), std::move(source), store_, metrics_,
                                           wall_, options, [this, alive] {
                                             if (alive.lock()) {
                                               rediscover();
                                             }
                                           });
  spdlog::info("live: watching {} ({}{}{}{})", spec.name(), target.api_version(),
               spec.namespace_.empty() ? "" : ", namespace " + spec.namespace_,
               spec.label_selector.empty() ? "" : ", selector " + spec.label_selector,
               spec.cap == 0 ? "" : ", at most " + std::to_string(spec.cap));
  if (known_empty_.erase(spec.type) > 0) {
    // Served now: empty no longer means anything until the first list is in.
    store_.set_completeness(spec.type, list_completeness{list_completeness::state::not_synced, "not read yet"});
  }
  running_[spec.type] = running{spec, watch, replaces_synced};
  // A reflector that throws starts over (a fresh list), as after a 410: its kind stays watched.
  spawn_supervised(
      executor_, "watch " + spec.name(), [watch] { return reflector::run(watch); }, on_task_failure::restart);
}

void live_source::stop_watch(const kind_key& type, bool clear, bool quiet) {
  auto it = running_.find(type);
  if (it == running_.end()) {
    return;
  }
  if (!quiet) {
    spdlog::info("live: no longer watching {}", it->second.spec.name());
  }
  it->second.watch->stop();
  running_.erase(it);
  if (clear) {
    // What is not watched is not known: the kind's objects go, and its lists say so (that they
    // are "not watched", no longer that a watch failed).
    store_.replace_all(type, {});
    store_.set_completeness(type, list_completeness{list_completeness::state::not_synced, "not watched"});
    store_.set_interrupted(type, std::nullopt);
  }
}

void live_source::hold_unwatched(const watch_spec& spec) {
  stop_watch(spec.type, false, true);
  held_[spec.type] = spec;
  if (store_.count(spec.type) > 0) {
    store_.replace_all(spec.type, {});
  }
  if (store_.completeness(spec.type).reason != spec.not_watched_because) {
    spdlog::info("live: {} {}", spec.name(), spec.not_watched_because);
    store_.set_completeness(spec.type,
                            list_completeness{list_completeness::state::not_synced, spec.not_watched_because});
  }
}

void live_source::confirm_vanished_kinds(const std::vector<served_kind>& before, served_kinds& discovered) {
  static constexpr const char* vanished_reason = "discovery no longer lists it; asking again";
  vanished_kinds vanished = confirm_vanished(before, discovered, vanishing_);
  for (const kind_key& type : vanishing_) {
    // Listed again: what its watch holds is current once more, unless the watch itself is down
    // (then the watch says so, and clears it when it is open again).
    auto it = running_.find(type);
    const std::optional<watch_interruption> marked = store_.interrupted(type);
    if (discovered.serves(type) && !vanished.pending.contains(type) && it != running_.end() && marked &&
        marked->reason == vanished_reason && it->second.watch->current_phase() == reflector::phase::watching) {
      store_.set_interrupted(type, std::nullopt);
    }
  }
  for (const kind_key& type : vanished.dropped) {
    spdlog::info("live: discovery again does not list {}.{}: no longer served", type.kind, type.group);
  }
  for (served_kind& kind : vanished.kept) {
    spdlog::info("live: discovery no longer lists {}.{}; kept until discovery is asked again", kind.type.kind,
                 kind.type.group);
    if (running_.contains(kind.type) && !store_.interrupted(kind.type)) {
      store_.set_interrupted(kind.type, watch_interruption{wall_.now(), vanished_reason});
    }
    discovered.add(std::move(kind));
  }
  vanishing_ = std::move(vanished.pending);
}

void live_source::reconcile() {
  const auto now = std::chrono::steady_clock::now();
  for (auto it = demanded_.begin(); it != demanded_.end();) {
    it = now - it->second >= options_.demand_ttl ? demanded_.erase(it) : std::next(it);
  }
  std::set<kind_key> planned;
  const named_namespaces named = [this](const namespace_source& source) { return namespaces_named(store_, source); };
  for (const watch_spec& spec : planner_.plan(served_, named)) {
    planned.insert(spec.type);
    auto it = running_.find(spec.type);
    if (!spec.not_watched_because.empty()) {
      hold_unwatched(spec);
      continue;
    }
    held_.erase(spec.type);
    if (!wanted(spec, now)) {
      stop_watch(spec.type, true);
      continue;
    }
    if (it != running_.end()) {
      if (it->second.spec.same_watch(spec)) {
        it->second.spec = spec;
        continue;
      }
      // Another version or selector: the new list replaces all. Another namespace: what the old
      // one held is no longer watched, so it goes now.
      const bool same_namespace = it->second.spec.namespace_ == spec.namespace_;
      const bool was_synced = it->second.watch->synced() || it->second.replaces_synced;
      const std::string old_version = it->second.spec.version;
      stop_watch(spec.type, !same_namespace);
      if (same_namespace && was_synced) {
        // Kept until the new list is in (a CRD that now serves another version): shown, but not
        // as current; the first failure's time is kept when its watch had already failed.
        if (!store_.interrupted(spec.type)) {
          store_.set_interrupted(spec.type, watch_interruption{wall_.now(), "reading it again as " + spec.version +
                                                                                " (was " + old_version + ")"});
        }
        spdlog::info("live: {} is read again as {} (was {})", spec.name(), spec.version, old_version);
        start_watch(spec, true);
        continue;
      }
    }
    start_watch(spec);
  }
  std::vector<kind_key> unserved;
  for (const auto& [type, r] : running_) {
    if (!planned.contains(type)) {
      unserved.push_back(type);
    }
  }
  std::erase_if(held_, [&planned](const auto& entry) { return !planned.contains(entry.first); });
  for (const kind_key& type : unserved) {
    stop_watch(type, true);
  }
  // A kind the cluster does not serve has no objects: its list is known, and empty (a pod's
  // claim on a cluster without ResourceClaims is not found, not "cannot tell"), as in snapshot
  // mode.
  for (const kind_key& type : planner_.resource_kinds) {
    if (served_.serves(type) || store_.completeness(type).complete()) {
      continue;
    }
    store_.replace_all(type, {});
    store_.set_completeness(type, list_completeness{list_completeness::state::complete, {}});
    known_empty_.insert(type);
  }
}

void live_source::collect(metrics_registry& metrics) const {
  metrics.clear(cache_objects_metric);
  metrics.clear(synced_metric);
  metrics.clear(forbidden_metric);
  for (const auto& [type, r] : running_) {
    const metric_labels labels{{"resource", r.spec.name()}};
    metrics.set(cache_objects_metric, labels, static_cast<double>(store_.count(type)));
    metrics.set(synced_metric, labels, r.watch->synced() ? 1 : 0);
  }
  for (const std::string& name : forbidden()) {
    metrics.set(forbidden_metric, {{"resource", name}}, 1);
  }
}

net::awaitable<void> live_source::supervise(live_source* self, std::shared_ptr<bool> alive) {
  backoff retry(backoff_policy{std::chrono::milliseconds(1000), std::chrono::milliseconds(30000), 2.0, 0.5,
                               std::chrono::minutes(5)});
  auto next_discovery = std::chrono::steady_clock::now();
  while (*alive && !self->stopped_) {
    auto now = std::chrono::steady_clock::now();
    // While kinds wait for a second discovery to confirm they are gone, a watch's 404 does not
    // bring it sooner: the server that lacked them may just not have installed them yet.
    const bool asked_early = self->rediscover_requested_ && self->vanishing_.empty();
    if (asked_early || now >= next_discovery) {
      self->rediscover_requested_ = false;
      discovery_outcome outcome = co_await discover(self->client_);
      if (!*alive || self->stopped_) {
        break;
      }
      now = std::chrono::steady_clock::now();
      if (outcome.document) {
        served_kinds discovered = self->served_;
        apply_discovery(*outcome.document, discovered);
        self->confirm_vanished_kinds(self->served_.all(), discovered);
        if (!discovered.same_as(self->served_)) {
          self->served_ = std::move(discovered);
        }
        self->server_minor_ = outcome.document->server_minor;
        if (!self->discovered_) {
          spdlog::info("live: discovery read {} kinds ({} discovery, server 1.{})", self->served_.all().size(),
                       outcome.document->aggregated ? "aggregated" : "per group", self->server_minor_);
        }
        self->discovered_ = true;
        self->discovery_error_.clear();
        retry.reset();
        next_discovery = now + (self->vanishing_.empty() ? self->options_.discovery_interval : vanished_recheck_delay);
      } else {
        if (self->discovery_error_ != outcome.error) {
          spdlog::warn("live: discovery failed: {}", outcome.error);
        }
        self->discovery_error_ = outcome.error;
        // A server that said how long to leave it alone is not asked again sooner.
        std::chrono::steady_clock::duration delay = retry.next(now);
        if (outcome.retry_after) {
          delay = std::max<std::chrono::steady_clock::duration>(
              delay, std::min<std::chrono::steady_clock::duration>(*outcome.retry_after,
                                                                   self->options_.reflector.retry_after_cap));
        }
        next_discovery = now + delay;
      }
    }
    if (self->discovered_) {
      self->reconcile();
    }
    if (!self->wake_requested_) {
      auto delay = std::min<std::chrono::steady_clock::duration>(next_discovery - now, sweep_interval);
      co_await sleep_for(self->wake_timer_,
                         std::max<std::chrono::steady_clock::duration>(delay, std::chrono::milliseconds(1)));
      if (!*alive) {
        co_return;
      }
    }
    self->wake_requested_ = false;
  }
  if (*alive) {
    self->finished_ = true;
  }
}

}  // namespace sextant::kube
