// A little over 400 lines: the coroutine steps of each loop state (list, open, read, wait) and
// the effects they apply are one I/O shell around reflector_transitions' pure decisions.
#include "kube/reflector.hpp"

#include <algorithm>
#include <vector>

#include <spdlog/spdlog.h>

namespace sextant::kube {

namespace reflector_metrics {
void describe(metrics_registry& metrics) {
  using type = metrics_registry::metric_type;
  metrics.describe(list_restarts, type::counter, "Lists of a watched resource after its first one.");
  metrics.describe(watch_restarts, type::counter,
                   "Watches re-opened after one broke (not counting the server's regular timeout).");
  metrics.describe(relists_gone, type::counter,
                   "Relists because the API server no longer had the watched version (410 Gone).");
  metrics.describe(last_sync, type::gauge, "When the resource's cache last matched a complete list (Unix time).");
  metrics.describe(watch_events, type::counter,
                   "Watch events applied to the cache (added, modified, deleted; not bookmarks or errors).");
}
}  // namespace reflector_metrics

namespace {

constexpr const char* initial_events_end = "k8s.io/initial-events-end";

std::string plural_kind(const std::string& kind) {
  return kind + "s";
}

using outcome_kind = reflection::outcome::kind;

reflection::outcome came_to(outcome_kind what, api_error error = {}, std::unique_ptr<watch_stream> stream = {}) {
  return reflection::outcome{what, std::move(error), std::move(stream)};
}

reflector::phase phase_of(const reflection::state& state) {
  if (std::holds_alternative<reflection::empty>(state)) {
    return reflector::phase::listing;
  }
  if (std::holds_alternative<reflection::listed>(state) || std::holds_alternative<reflection::watching>(state)) {
    return reflector::phase::watching;
  }
  if (std::holds_alternative<reflection::backing_off>(state)) {
    return reflector::phase::backing_off;
  }
  return reflector::phase::stopped;
}

// One of a streaming list's initial events, as it came.
struct initial_event {
  object_ptr object;
  bool deleted = false;
};

// What a streaming list's initial events leave, in the store's order: the last event of each
// object, unless that one deleted it. Sorted out once, at the end, rather than kept in a map as
// they come: a map's node and key string per object were allocated between the cached bodies and
// freed after the sync, and at 150 000 Pods their holes (128 bytes each) stayed resident for good.
std::vector<object_ptr> last_states(std::vector<initial_event> events) {
  std::stable_sort(events.begin(), events.end(), [](const initial_event& a, const initial_event& b) {
    return key_less(a.object->namespace_, a.object->name, b.object->namespace_, b.object->name);
  });
  std::vector<object_ptr> objects;
  objects.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    const bool last_of_its_object =
        i + 1 == events.size() || key_less(events[i].object->namespace_, events[i].object->name,
                                           events[i + 1].object->namespace_, events[i + 1].object->name);
    if (last_of_its_object && !events[i].deleted) {
      objects.push_back(std::move(events[i].object));
    }
  }
  return objects;
}

}  // namespace

reflector::reflector(net::any_io_executor executor, kind_key type, std::string name,
                     std::unique_ptr<lister_watcher> source, object_store& store, metrics_registry& metrics,
                     const clock& wall, reflector_options options, std::function<void()> on_not_found)
    : executor_(executor),
      type_(std::move(type)),
      name_(std::move(name)),
      source_(std::move(source)),
      store_(store),
      metrics_(metrics),
      wall_(wall),
      options_(options),
      on_not_found_(std::move(on_not_found)),
      backoff_(options.backoff),
      pause_timer_(executor),
      random_(std::random_device{}()),
      state_(reflection::first_state(options_.streaming_list && options_.cap == 0)) {}

net::awaitable<void> reflector::run(std::shared_ptr<reflector> self) {
  co_await self->loop();
  self->phase_ = phase::stopped;
}

void reflector::stop() {
  if (stopped_) {
    return;
  }
  stopped_ = true;
  pause_timer_.cancel();
  source_->cancel();
}

std::chrono::seconds reflector::watch_timeout() {
  auto low = options_.watch_timeout_min.count();
  auto high = std::max(options_.watch_timeout_max.count(), low + 1);
  std::uniform_int_distribution<std::int64_t> pick(low, high - 1);
  return std::chrono::seconds(pick(random_));
}

net::awaitable<void> reflector::pause() {
  std::chrono::milliseconds delay = backoff_.next(wall_.now());
  if (retry_after_) {
    const std::chrono::milliseconds asked = std::min(*retry_after_, options_.retry_after_cap);
    std::uniform_int_distribution<std::int64_t> spread(0, asked.count() / 2);
    delay = std::max(delay, asked + std::chrono::milliseconds(spread(random_)));
    retry_after_.reset();
  }
  if (options_.sleep) {
    co_await options_.sleep(delay);
  } else {
    co_await sleep_for(pause_timer_, delay);
  }
}

void reflector::mark_synced() {
  synced_ = true;
  last_error_.clear();
  store_.set_interrupted(type_, std::nullopt);
  metrics_.set(
      reflector_metrics::last_sync, {{"resource", name_}},
      static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(wall_.now().time_since_epoch()).count()));
}

void reflector::set_truncated() {
  truncated_ = true;
  store_.set_completeness(
      type_, list_completeness{
                 list_completeness::state::truncated,
                 cut_reason(options_.cap, options_.cap_noun.empty() ? plural_kind(type_.kind) : options_.cap_noun)});
}

void reflector::mark_unreadable(const api_error& error, std::string_view during) {
  // Not allowed to read the kind: what is cached cannot be trusted to be current either.
  store_.replace_all(type_, {});
  store_.set_completeness(type_,
                          list_completeness{list_completeness::state::unreadable, "forbidden: " + error.message});
  synced_ = true;                               // nothing more will come; readiness must not wait for it
  store_.set_interrupted(type_, std::nullopt);  // nothing is shown to be out of date
  spdlog::warn("watch {}: {} is forbidden: {}", name_, during, error.message);
}

net::awaitable<reflection::outcome> reflector::paged_list() {
  std::vector<object_ptr> objects;
  std::string continue_token;
  std::string version;
  bool truncated = false;
  const time_point now = wall_.now();
  do {
    list_request request;
    request.continue_token = continue_token;
    request.limit = options_.page_size;
    if (options_.cap > 0) {
      request.limit = std::min(options_.page_size, options_.cap - objects.size());
    }
    list_result result = co_await source_->list(request);
    if (stopped_) {
      co_return came_to(outcome_kind::stopped);
    }
    if (!result.page) {
      co_return came_to(outcome_kind::list_failed, result.error);
    }
    if (version.empty()) {
      version = result.page->resource_version;
    }
    for (packed_body& item : result.page->items) {
      if (options_.cap > 0 && objects.size() >= options_.cap) {
        truncated = true;  // a server answering from its cache may ignore `limit`
        break;
      }
      std::string error;
      if (object_ptr object = make_object(std::move(item), now, &error)) {
        objects.push_back(std::move(object));
      } else {
        spdlog::debug("watch {}: list item skipped: {}", name_, error);
      }
    }
    continue_token = result.page->continue_token;
    if (options_.cap > 0 && objects.size() >= options_.cap && !continue_token.empty()) {
      truncated = true;
    }
  } while (!continue_token.empty() && !truncated);

  if (version.empty()) {
    co_return came_to(outcome_kind::list_failed, api_error{0, "NoVersion", "the list carried no resourceVersion"});
  }
  resource_version_ = version;
  streaming_used_ = false;
  store_.replace_all(type_, std::move(objects));
  if (truncated) {
    set_truncated();
  } else {
    truncated_ = false;
    store_.set_completeness(type_, list_completeness{list_completeness::state::complete, {}});
  }
  co_return came_to(outcome_kind::listed);
}

net::awaitable<reflection::outcome> reflector::streaming_list() {
  watch_request request;
  request.send_initial_events = true;
  request.timeout = watch_timeout();
  request.idle_timeout = options_.watch_silence;
  watch_open opened = co_await source_->watch(request);
  if (stopped_) {
    co_return came_to(outcome_kind::stopped);
  }
  if (!opened.stream) {
    // A server without streaming lists refuses the parameter as invalid.
    bool unsupported = opened.error.code == 400 || opened.error.code == 422 || opened.error.code == 501;
    co_return came_to(unsupported ? outcome_kind::streaming_unsupported : outcome_kind::list_failed, opened.error);
  }
  std::vector<initial_event> initial;
  const time_point now = wall_.now();
  for (;;) {
    watch_item item = co_await opened.stream->next();
    if (stopped_) {
      co_return came_to(outcome_kind::stopped);
    }
    if (item.what == watch_item::kind::closed) {
      // Ended before saying the initial events were over: not a streaming list after all.
      co_return came_to(outcome_kind::streaming_unsupported,
                        api_error{0, "Incomplete", "the streaming list ended before its last event"});
    }
    if (item.what != watch_item::kind::event) {
      co_return came_to(outcome_kind::list_failed, item.error);
    }
    decoded_watch_event& event = item.event;
    if (event.type == "ERROR") {
      co_return came_to(outcome_kind::list_failed, status_error(json(event.object.root())));
    }
    if (event.type == "BOOKMARK") {
      std::string version = string_or(event.object.root(), {"metadata", "resourceVersion"});
      if (string_or(event.object.root(), {"metadata", "annotations", initial_events_end}) == "true") {
        resource_version_ = version;
        streaming_used_ = true;
        truncated_ = false;
        store_.replace_all(type_, last_states(std::move(initial)));
        store_.set_completeness(type_, list_completeness{list_completeness::state::complete, {}});
        co_return came_to(outcome_kind::listed, {}, std::move(opened.stream));
      }
      continue;
    }
    std::string error;
    object_ptr object = make_object(std::move(event.object), now, &error);
    if (!object) {
      spdlog::debug("watch {}: event skipped: {}", name_, error);
      continue;
    }
    initial.push_back(initial_event{std::move(object), event.type == "DELETED"});
  }
}

std::optional<api_error> reflector::apply(decoded_watch_event& event) {
  if (event.type == "ERROR") {
    return status_error(json(event.object.root()));
  }
  if (event.type == "BOOKMARK") {
    // A bookmark only moves the version forward.
    if (auto version = get_string(event.object.root(), {"metadata", "resourceVersion"}); version && !version->empty()) {
      resource_version_ = *version;
    }
    return std::nullopt;
  }
  std::string error;
  object_ptr object = make_object(std::move(event.object), wall_.now(), &error);
  if (!object) {
    spdlog::debug("watch {}: {} event skipped: {}", name_, event.type, error);
    return std::nullopt;
  }
  if (!object->resource_version.empty()) {
    resource_version_ = object->resource_version;
  }
  if (event.type == "DELETED") {
    store_.remove(type_, object->namespace_, object->name);
    return std::nullopt;
  }
  if (options_.cap > 0 && !store_.get(type_, object->namespace_, object->name) && store_.count(type_) >= options_.cap) {
    if (!truncated_) {
      set_truncated();
    }
    return std::nullopt;  // past the cap: not kept
  }
  store_.upsert(std::move(object));
  return std::nullopt;
}

net::awaitable<reflection::outcome> reflector::consume(watch_stream& stream) {
  for (;;) {
    watch_item item = co_await stream.next();
    if (stopped_) {
      co_return came_to(outcome_kind::stopped);
    }
    switch (item.what) {
      case watch_item::kind::closed:
        co_return came_to(outcome_kind::watch_closed);
      case watch_item::kind::idle:
      case watch_item::kind::failed:
        co_return came_to(outcome_kind::watch_broken, std::move(item.error));
      case watch_item::kind::event:
        break;
    }
    const bool changes_an_object = item.event.type != "BOOKMARK" && item.event.type != "ERROR";
    if (std::optional<api_error> error = apply(item.event)) {
      co_return came_to(outcome_kind::watch_error_event, std::move(*error));
    }
    if (changes_an_object) {
      metrics_.increment(reflector_metrics::watch_events, {{"resource", name_}});
    }
  }
}

net::awaitable<void> reflector::loop() {
  state_ = reflection::start_over(std::move(state_));
  while (!std::holds_alternative<reflection::stopped>(state_)) {
    phase_ = phase_of(state_);
    reflection::outcome happened = came_to(outcome_kind::stopped);
    if (!stopped_) {
      happened = co_await take_step();
    }
    if (stopped_) {
      happened = came_to(outcome_kind::stopped);  // what the step came to no longer matters
    }
    const outcome_kind what = happened.what;
    const api_error error = happened.error;
    reflection::transition next = reflection::next_step(std::move(state_), std::move(happened));
    state_ = std::move(next.next);
    perform(next.effect, what, error);
  }
  phase_ = phase::stopped;
}

net::awaitable<reflection::outcome> reflector::take_step() {
  if (const auto* now = std::get_if<reflection::empty>(&state_)) {
    co_return co_await list_all(*now);
  }
  if (const auto* now = std::get_if<reflection::listed>(&state_)) {
    co_return co_await open_watch(*now);
  }
  if (auto* now = std::get_if<reflection::watching>(&state_)) {
    co_return co_await consume(*now->stream);
  }
  co_await pause();
  co_return came_to(outcome_kind::waited);
}

void reflector::perform(const reflection::effects& effect, outcome_kind what, const api_error& error) {
  if (effect.synced) {
    mark_synced();
  }
  if (what == outcome_kind::watch_opened) {
    store_.set_interrupted(type_, std::nullopt);  // current again from the version watched on
  }
  if (what == outcome_kind::streaming_unsupported) {
    spdlog::info("watch {}: no streaming list ({}); listing in pages", name_, error.describe());
  }
  if (effect.relist_gone) {
    if (what == outcome_kind::watch_error_event) {
      spdlog::info("watch {}: version {} is gone (410); listing again", name_, resource_version_);
    }
    metrics_.increment(reflector_metrics::relists_gone, {{"resource", name_}});
  }
  if (effect.failed_in.empty()) {
    return;
  }
  last_error_ = std::string(effect.failed_in) + ": " + error.describe();
  retry_after_ = error.retry_after;  // the next pause waits at least this long
  if (effect.unreadable) {
    mark_unreadable(error, effect.failed_in);
    return;
  }
  if (synced_) {
    // What the cache holds was current when this began: views say it may be out of date until
    // a watch is open again (the first failure's time and words are kept).
    store_.set_interrupted(type_, watch_interruption{wall_.now(), last_error_});
  }
  if (effect.not_found && on_not_found_) {
    on_not_found_();
  }
  if (what == outcome_kind::watch_broken) {
    spdlog::info("watch {}: {}", name_, last_error_);
  } else {
    spdlog::warn("watch {}: {} failed: {}", name_, effect.failed_in, error.describe());
  }
}

net::awaitable<reflection::outcome> reflector::list_all(const reflection::empty& now) {
  if (now.relist) {
    metrics_.increment(reflector_metrics::list_restarts, {{"resource", name_}});
  }
  // Not a conditional expression: GCC 12 miscompiles co_await inside `?:`.
  if (now.plan.streaming) {
    co_return co_await streaming_list();
  }
  co_return co_await paged_list();
}

net::awaitable<reflection::outcome> reflector::open_watch(const reflection::listed& now) {
  if (now.rewatch) {
    metrics_.increment(reflector_metrics::watch_restarts, {{"resource", name_}});
  }
  watch_request request;
  request.resource_version = resource_version_;
  request.timeout = watch_timeout();
  request.idle_timeout = options_.watch_silence;
  watch_open opened = co_await source_->watch(request);
  if (opened.stream) {
    co_return came_to(outcome_kind::watch_opened, {}, std::move(opened.stream));
  }
  co_return came_to(outcome_kind::watch_refused, std::move(opened.error));
}

}  // namespace sextant::kube
