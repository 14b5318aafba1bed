#include "kube/reflector.hpp"

#include <map>

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
      random_(std::random_device{}()) {
  streaming_supported_ = options_.streaming_list && options_.cap == 0;
}

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
  phase_ = phase::backing_off;
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

void reflector::mark_failure(const api_error& error, const char* during) {
  last_error_ = std::string(during) + ": " + error.describe();
  retry_after_ = error.retry_after;
  if (error.code == 403) {
    // Not allowed to read the kind: what is cached cannot be trusted to be current either.
    store_.replace_all(type_, {});
    store_.set_completeness(type_,
                            list_completeness{list_completeness::state::unreadable, "forbidden: " + error.message});
    synced_ = true;  // nothing more will come; readiness must not wait for it
    spdlog::warn("watch {}: {} is forbidden: {}", name_, during, error.message);
    return;
  }
  if (error.code == 404 && on_not_found_) {
    on_not_found_();
  }
  spdlog::warn("watch {}: {} failed: {}", name_, during, error.describe());
}

net::awaitable<reflector::step> reflector::paged_list(const std::string& list_version) {
  std::vector<object_ptr> objects;
  std::string continue_token;
  std::string version;
  bool truncated = false;
  const time_point now = wall_.now();
  do {
    list_request request;
    request.resource_version = list_version;
    request.continue_token = continue_token;
    request.limit = options_.page_size;
    if (options_.cap > 0) {
      request.limit = std::min(options_.page_size, options_.cap - objects.size());
    }
    list_result result = co_await source_->list(request);
    if (stopped_) {
      co_return step{};
    }
    if (!result.page) {
      co_return step{false, result.error, false};
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
    co_return step{false, api_error{0, "NoVersion", "the list carried no resourceVersion"}, false};
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
  co_return step{true, {}, false};
}

net::awaitable<reflector::step> reflector::streaming_list(std::unique_ptr<watch_stream>& carry) {
  watch_request request;
  request.send_initial_events = true;
  request.timeout = watch_timeout();
  request.idle_timeout = options_.watch_silence;
  watch_open opened = co_await source_->watch(request);
  if (stopped_) {
    co_return step{};
  }
  if (!opened.stream) {
    // A server without streaming lists refuses the parameter as invalid.
    bool unsupported = opened.error.code == 400 || opened.error.code == 422 || opened.error.code == 501;
    co_return step{false, opened.error, unsupported};
  }
  std::map<std::string, object_ptr> initial;
  const time_point now = wall_.now();
  for (;;) {
    watch_item item = co_await opened.stream->next();
    if (stopped_) {
      co_return step{};
    }
    if (item.what == watch_item::kind::closed) {
      // Ended before saying the initial events were over: not a streaming list after all.
      co_return step{false, api_error{0, "Incomplete", "the streaming list ended before its last event"}, true};
    }
    if (item.what != watch_item::kind::event) {
      co_return step{false, item.error, false};
    }
    decoded_watch_event& event = item.event;
    if (event.type == "ERROR") {
      co_return step{false, status_error(json(event.object.root())), false};
    }
    if (event.type == "BOOKMARK") {
      std::string version = string_or(event.object.root(), {"metadata", "resourceVersion"});
      if (string_or(event.object.root(), {"metadata", "annotations", initial_events_end}) == "true") {
        std::vector<object_ptr> objects;
        objects.reserve(initial.size());
        for (auto& [key, object] : initial) {
          objects.push_back(std::move(object));
        }
        resource_version_ = version;
        streaming_used_ = true;
        truncated_ = false;
        store_.replace_all(type_, std::move(objects));
        store_.set_completeness(type_, list_completeness{list_completeness::state::complete, {}});
        carry = std::move(opened.stream);
        co_return step{true, {}, false};
      }
      continue;
    }
    std::string error;
    object_ptr object = make_object(std::move(event.object), now, &error);
    if (!object) {
      spdlog::debug("watch {}: event skipped: {}", name_, error);
      continue;
    }
    if (event.type == "DELETED") {
      initial.erase(object->key());
    } else {
      initial[object->key()] = std::move(object);
    }
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

net::awaitable<reflector::watch_end> reflector::consume(watch_stream& stream) {
  for (;;) {
    watch_item item = co_await stream.next();
    if (stopped_) {
      co_return watch_end::stopped;
    }
    switch (item.what) {
      case watch_item::kind::closed:
        co_return watch_end::closed;
      case watch_item::kind::idle:
      case watch_item::kind::failed:
        last_error_ = "watch: " + item.error.describe();
        spdlog::info("watch {}: {}", name_, last_error_);
        co_return watch_end::failed;
      case watch_item::kind::event:
        break;
    }
    const bool changes_an_object = item.event.type != "BOOKMARK" && item.event.type != "ERROR";
    if (std::optional<api_error> error = apply(item.event)) {
      if (error->gone()) {
        co_return watch_end::gone;
      }
      mark_failure(*error, "watch");
      co_return watch_end::failed;
    }
    if (changes_an_object) {
      metrics_.increment(reflector_metrics::watch_events, {{"resource", name_}});
    }
  }
}

net::awaitable<void> reflector::loop() {
  loop_state state = loop_state::empty;
  while (!stopped_) {
    switch (state) {
      case loop_state::empty:
        state = co_await list_all();
        break;
      case loop_state::listed:
        state = co_await open_watch();
        break;
      case loop_state::watching:
        state = co_await read_watch();
        break;
      case loop_state::backing_off:
        co_await pause();
        state = after_backoff_;
        break;
    }
  }
  phase_ = phase::stopped;
}

reflector::loop_state reflector::back_off_then(loop_state after) {
  after_backoff_ = after;
  return loop_state::backing_off;
}

reflector::loop_state reflector::relist_latest() {
  metrics_.increment(reflector_metrics::relists_gone, {{"resource", name_}});
  list_version_.clear();
  return loop_state::empty;
}

net::awaitable<reflector::loop_state> reflector::list_all() {
  phase_ = phase::listing;
  if (listed_before_) {
    metrics_.increment(reflector_metrics::list_restarts, {{"resource", name_}});
  }
  listed_before_ = true;
  // Not a conditional expression: GCC 12 miscompiles co_await inside `?:`.
  step listed;
  if (streaming_supported_) {
    listed = co_await streaming_list(stream_);
  } else {
    listed = co_await paged_list(list_version_);
  }
  if (stopped_) {
    co_return loop_state::empty;
  }
  if (!listed.ok) {
    if (listed.fall_back) {
      spdlog::info("watch {}: no streaming list ({}); listing in pages", name_, listed.error.describe());
      streaming_supported_ = false;
      co_return loop_state::empty;
    }
    if (listed.error.gone()) {
      co_return relist_latest();  // the version (or a continue token) expired
    }
    mark_failure(listed.error, "list");
    co_return back_off_then(loop_state::empty);
  }
  mark_synced();
  // A streaming list goes on as the watch it was.
  co_return stream_ ? loop_state::watching : loop_state::listed;
}

net::awaitable<reflector::loop_state> reflector::open_watch() {
  phase_ = phase::watching;
  if (restart_watch_) {
    metrics_.increment(reflector_metrics::watch_restarts, {{"resource", name_}});
  }
  watch_request request;
  request.resource_version = resource_version_;
  request.timeout = watch_timeout();
  request.idle_timeout = options_.watch_silence;
  watch_open opened = co_await source_->watch(request);
  if (stopped_) {
    co_return loop_state::listed;
  }
  if (opened.stream) {
    stream_ = std::move(opened.stream);
    co_return loop_state::watching;
  }
  restart_watch_ = true;
  if (opened.error.gone()) {
    co_return relist_latest();
  }
  mark_failure(opened.error, "watch");
  // A 403 emptied the kind as unreadable: once allowed, list it again.
  co_return back_off_then(opened.error.code == 403 ? loop_state::empty : loop_state::listed);
}

net::awaitable<reflector::loop_state> reflector::read_watch() {
  phase_ = phase::watching;
  watch_end end = co_await consume(*stream_);
  stream_.reset();
  switch (end) {
    case watch_end::stopped:
      co_return loop_state::listed;  // the loop ends: stopped
    case watch_end::closed:
      restart_watch_ = false;  // the server's timeout: watch again at once
      co_return loop_state::listed;
    case watch_end::gone:
      spdlog::info("watch {}: version {} is gone (410); listing again", name_, resource_version_);
      restart_watch_ = true;
      co_return relist_latest();
    case watch_end::failed:
      restart_watch_ = true;
      co_return back_off_then(loop_state::listed);
  }
  co_return loop_state::listed;
}

}  // namespace sextant::kube
