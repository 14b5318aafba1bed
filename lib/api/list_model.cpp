#include "api/list_model.hpp"

#include <set>

#include "api/out_of_date.hpp"
#include "api/resource_views.hpp"
#include "util/held_bytes.hpp"

namespace sextant {
namespace {

using steady = std::chrono::steady_clock;

std::string dump_text(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

list_item item_of(const json& summary, std::string key, bool marked) {
  list_item item;
  item.key = std::move(key);
  item.namespace_ = string_or(summary, {"namespace"});
  item.state = string_or(summary, {"state", "label"});
  item.queue = string_or(summary, {"localQueue"});
  item.body = dump_text(summary);
  if (marked) {
    stripped_view stripped = strip_join_marks(item.body);
    item.body = std::move(stripped.text);
    item.joins = std::move(stripped.joins);
  }
  return item;
}

// The runs, the positions and the size of a finished model.
void index_model(list_model& model) {
  model.bytes = sizeof(list_model) + model.items.capacity() * sizeof(list_item) + heap_bytes(model.incomplete_reason);
  std::set<std::pair<kind_key, std::string>> scopes;
  for (std::size_t at = 0; at < model.items.size(); ++at) {
    const list_item& item = model.items[at];
    if (model.runs.empty() || model.runs.back().namespace_ != item.namespace_) {
      if (!model.runs.empty()) {
        model.runs.back().join_scopes.assign(scopes.begin(), scopes.end());
        scopes.clear();
      }
      model.runs.push_back(namespace_run{item.namespace_, at, at, {}});
    }
    model.runs.back().end = at + 1;
    for (const join_span& span : item.joins) {
      scopes.emplace(span.type, span.namespace_);
    }
    model.positions_by_state[item.state].push_back(static_cast<std::uint32_t>(at));
    model.positions_by_queue[item.queue].push_back(static_cast<std::uint32_t>(at));
    model.bytes += heap_bytes(item.key) + heap_bytes(item.namespace_) + heap_bytes(item.body) + heap_bytes(item.state) +
                   heap_bytes(item.queue) + item.joins.capacity() * sizeof(join_span) +
                   item.labels.capacity() * sizeof(item.labels[0]) + 2 * sizeof(std::uint32_t);
    for (const auto& [key, value] : item.labels) {
      model.bytes += heap_bytes(key) + heap_bytes(value);
    }
  }
  if (!model.runs.empty()) {
    model.runs.back().join_scopes.assign(scopes.begin(), scopes.end());
  }
}

}  // namespace

list_render::list_render(daemon_state& state, const section& owner, const resource_def& resource)
    : state_(state), owner_(owner), resource_(resource), rendered_at_(render_instant(state)) {}

void list_render::start(const view_context& context) {
  started_ = true;
  if (resource_.list_computed) {
    // A computed page is one call: its items come from several kinds at once.
    computed_list computed;
    try {
      computed = resource_.list_computed(context);
    } catch (const std::exception& error) {
      state_.interpreter_failed(owner_.id, resource_.id, "list_computed", error.what());
      computed = computed_list{json::array(), true, std::string("the list could not be computed: ") + error.what()};
    }
    model_.computed = true;
    model_.items.reserve(computed.items.size());
    for (json& item : computed.items) {
      std::string key = string_or(item, {"namespace"});
      key += (key.empty() ? "" : "/") + string_or(item, {"name"});
      model_.items.push_back(item_of(item, std::move(key), context.mark_joins));
    }
    model_.incomplete = computed.incomplete;
    model_.incomplete_reason = computed.incomplete_reason;
    return;
  }
  objects_ = state_.store.list(resource_.type);
  model_.items.reserve(objects_.size());
}

void list_render::finish(const view_context& context) {
  if (!model_.computed) {
    list_completeness completeness = context.store.completeness(resource_.type);
    model_.incomplete = !completeness.complete();
    if (model_.incomplete) {
      model_.incomplete_reason =
          completeness.reason.empty() ? "the list has not been read in full yet" : completeness.reason;
    }
    model_.incomplete_reason = with_out_of_date(std::move(model_.incomplete_reason), context.store, resource_.type);
    model_.incomplete = !model_.incomplete_reason.empty();
  }
  objects_.clear();
  objects_.shrink_to_fit();
  model_.stamp = view_stamp(reads_, state_, rendered_at_);
  model_.stamp.ask_again(state_);
  index_model(model_);
  result_ = std::make_shared<const list_model>(std::move(model_));
  done_ = true;
}

bool list_render::step(std::chrono::microseconds budget) {
  if (done_) {
    return true;
  }
  view_context context = state_.context();
  context.now = rendered_at_;
  context.now.record_into(&reads_);
  context.reads = &reads_;
  context.mark_joins = state_.per_caller_views;
  state_.store.record_reads(&reads_);
  struct stop_recording {
    const object_store& store;
    ~stop_recording() { store.record_reads(nullptr); }
  } stop{state_.store};
  if (!started_) {
    start(context);
  }
  const steady::time_point until = steady::now() + budget;
  while (next_ < objects_.size()) {
    const cached_object& object = *objects_[next_];
    list_item item =
        item_of(object_summary(state_, owner_, resource_, object, context), object.key(), context.mark_joins);
    for (const auto& [key, value] : object_or_empty(object.body(), {"metadata", "labels"}).items()) {
      if (value.is_string()) {
        item.labels.emplace_back(std::string(key), std::string(value.string_view()));
      }
    }
    model_.items.push_back(std::move(item));
    objects_[next_].reset();  // the model holds what it needs; do not keep old objects alive
    ++next_;
    if (steady::now() >= until) {
      break;
    }
  }
  if (next_ >= objects_.size()) {
    finish(context);
  }
  return done_;
}

}  // namespace sextant
