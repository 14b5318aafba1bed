#include "store/object_store.hpp"

#include <algorithm>
#include <iterator>

namespace sextant {

namespace {

// Removes every entry of `index` at `value` that holds `object`.
template <typename Index>
void erase_entries(Index& index, std::string_view value, const object_ptr& object) {
  // An erase invalidates every other iterator of a B-tree (the range's end among them): each
  // step checks the key again instead.
  for (auto it = index.lower_bound(value); it != index.end() && it->first == value;) {
    it = it->second == object ? index.erase(it) : std::next(it);
  }
}

// The strings of an object its indexes file it under: its owners' uids, a label's value.
template <typename Visit>
void for_each_owner_uid(const cached_object& object, Visit visit) {
  for (const packed_value& owner : array_or_empty(object.body(), {"metadata", "ownerReferences"})) {
    if (const packed_value* uid = owner.member("uid"); uid != nullptr && uid->is_string()) {
      visit(uid->string_view());
    }
  }
}

const packed_value* label_value(const cached_object& object, const std::string& label_key) {
  const packed_value* value = find(object.body(), {"metadata", "labels", label_key});
  return value != nullptr && value->is_string() ? value : nullptr;
}

}  // namespace

void object_store::index(kind_cache& cache, const object_ptr& object) {
  cache.held_bytes += object->held_bytes();
  for_each_owner_uid(*object, [&](std::string_view uid) { cache.by_owner.emplace(uid, object); });
  for (auto& [label_key, values] : cache.by_label) {
    if (const packed_value* value = label_value(*object, label_key)) {
      values.emplace(value->string_view(), object);
    }
  }
}

void object_store::unindex(kind_cache& cache, const object_ptr& object) {
  cache.held_bytes -= object->held_bytes();
  for_each_owner_uid(*object, [&](std::string_view uid) { erase_entries(cache.by_owner, uid, object); });
  for (auto& [label_key, values] : cache.by_label) {
    if (const packed_value* value = label_value(*object, label_key)) {
      erase_entries(values, value->string_view(), object);
    }
  }
}

void object_store::notify(change_type type, const object_ptr& object) {
  for (const listener& on_change : listeners_) {
    on_change(change{type, object});
  }
}

void object_store::upsert(object_ptr object) {
  kind_cache& cache = kinds_[object->type];
  auto it = cache.by_key.find(object_name{object->namespace_, object->name});
  change_type type = change_type::added;
  if (it != cache.by_key.end()) {
    type = change_type::modified;
    const object_ptr& earlier = *it;
    if (earlier->uid == object->uid && earlier->first_seen < object->first_seen) {
      auto kept = std::make_shared<cached_object>(*object);
      kept->first_seen = earlier->first_seen;
      object = std::move(kept);
    }
    unindex(cache, earlier);
    // The same place in the order: the hint makes the insert constant time.
    it = cache.by_key.erase(it);
    cache.by_key.insert(it, object);
  } else {
    cache.by_key.insert(object);
  }
  index(cache, object);
  changed(object->type);
  notify(type, object);
}

bool object_store::remove(const kind_key& type, std::string_view namespace_, std::string_view name) {
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return false;
  }
  auto it = cache->second.by_key.find(object_name{namespace_, name});
  if (it == cache->second.by_key.end()) {
    return false;
  }
  object_ptr gone = *it;
  unindex(cache->second, gone);
  cache->second.by_key.erase(it);
  changed(type);
  notify(change_type::deleted, gone);
  return true;
}

void object_store::replace_all(const kind_key& type, std::vector<object_ptr> objects) {
  absl::btree_set<object_ptr, key_order> fresh(objects.begin(), objects.end());
  std::vector<object_ptr> stale;
  if (auto cache = kinds_.find(type); cache != kinds_.end()) {
    for (const object_ptr& object : cache->second.by_key) {
      if (!fresh.contains(object)) {
        stale.push_back(object);
      }
    }
  }
  fresh.clear();
  for (const object_ptr& object : stale) {
    remove(type, object->namespace_, object->name);
  }
  for (object_ptr& object : objects) {
    auto current = get(type, object->namespace_, object->name);
    if (current && current->uid == object->uid && current->resource_version == object->resource_version &&
        !object->resource_version.empty()) {
      continue;  // unchanged since the last list: no event
    }
    upsert(std::move(object));
  }
}

void object_store::forget(const kind_key& type) {
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return;
  }
  std::vector<object_ptr> gone(cache->second.by_key.begin(), cache->second.by_key.end());
  kinds_.erase(cache);
  changed(type);
  for (const object_ptr& object : gone) {
    notify(change_type::deleted, object);
  }
}

object_ptr object_store::get(const kind_key& type, std::string_view namespace_, std::string_view name) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return nullptr;
  }
  auto it = cache->second.by_key.find(object_name{namespace_, name});
  return it == cache->second.by_key.end() ? nullptr : *it;
}

std::vector<object_ptr> object_store::list(const kind_key& type, std::optional<std::string_view> namespace_) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return {};
  }
  const auto& by_key = cache->second.by_key;
  if (!namespace_) {
    return {by_key.begin(), by_key.end()};
  }
  std::vector<object_ptr> out;
  if (namespace_->empty()) {
    return out;  // no namespace's objects: cluster-scoped ones are not in any
  }
  // A namespace's objects sort together, from its "namespace/" on.
  for (auto it = by_key.lower_bound(object_name{*namespace_, {}});
       it != by_key.end() && (*it)->namespace_ == *namespace_; ++it) {
    out.push_back(*it);
  }
  return out;
}

std::size_t object_store::count(const kind_key& type) const {
  record(type);
  auto cache = kinds_.find(type);
  return cache == kinds_.end() ? 0 : cache->second.by_key.size();
}

std::size_t object_store::held_bytes(const kind_key& type) const {
  auto cache = kinds_.find(type);
  return cache == kinds_.end() ? 0 : cache->second.held_bytes;
}

std::vector<object_ptr> object_store::matches(const object_index& index, std::string_view value) {
  std::vector<object_ptr> out;
  auto [begin, end] = index.equal_range(value);
  for (auto it = begin; it != end; ++it) {
    out.push_back(it->second);
  }
  std::sort(out.begin(), out.end(), key_order{});
  // An object that names the same owner twice is one object.
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<object_ptr> object_store::with_label(const kind_key& type, const std::string& key,
                                                 std::string_view value) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return {};
  }
  if (auto indexed = cache->second.by_label.find(key); indexed != cache->second.by_label.end()) {
    return matches(indexed->second, value);
  }
  std::vector<object_ptr> out;
  for (const object_ptr& object : cache->second.by_key) {
    if (const packed_value* label = label_value(*object, key); label != nullptr && label->string_view() == value) {
      out.push_back(object);
    }
  }
  return out;
}

std::vector<object_ptr> object_store::owned_by(const kind_key& type, std::string_view owner_uid) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return {};
  }
  return matches(cache->second.by_owner, owner_uid);
}

void object_store::index_label(const kind_key& type, const std::string& label_key) {
  kind_cache& cache = kinds_[type];
  if (cache.by_label.contains(label_key)) {
    return;
  }
  changed(type);
  object_index& values = cache.by_label[label_key];
  for (const object_ptr& object : cache.by_key) {
    if (const packed_value* value = label_value(*object, label_key)) {
      values.emplace(value->string_view(), object);
    }
  }
}

std::uint64_t object_store::generation(const kind_key& type) const {
  auto it = generations_.find(type);
  return it == generations_.end() ? 0 : it->second;
}

void object_store::record(const kind_key& type) const {
  if (recording_ != nullptr) {
    recording_->kinds.try_emplace(type, generation(type));
  }
}

void object_store::record_every_kind() const {
  if (recording_ != nullptr && !recording_->every_kind) {
    recording_->every_kind = true;
    recording_->every_kind_generation = generation_;
  }
}

std::string cut_reason(std::size_t cap, std::string_view noun) {
  return "cut at " + std::to_string(cap) + " " + std::string(noun);
}

void object_store::set_completeness(const kind_key& type, list_completeness completeness) {
  list_completeness& held = kinds_[type].completeness;
  const bool state_changed = held.value != completeness.value;
  if (!state_changed && held.reason == completeness.reason) {
    return;
  }
  held = std::move(completeness);
  changed(type);
  if (state_changed) {
    for (const auto& on_change : completeness_listeners_) {
      on_change(type);
    }
  }
}

void object_store::set_interrupted(const kind_key& type, std::optional<watch_interruption> interruption) {
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    if (!interruption) {
      return;
    }
    cache = kinds_.try_emplace(type).first;
  }
  if (cache->second.interrupted.has_value() == interruption.has_value()) {
    return;
  }
  cache->second.interrupted = std::move(interruption);
  changed(type);
}

std::optional<watch_interruption> object_store::interrupted(const kind_key& type) const {
  record(type);
  auto cache = kinds_.find(type);
  return cache == kinds_.end() ? std::nullopt : cache->second.interrupted;
}

list_completeness object_store::completeness(const kind_key& type) const {
  record(type);
  auto cache = kinds_.find(type);
  return cache == kinds_.end() ? list_completeness{} : cache->second.completeness;
}

std::vector<kind_key> object_store::kinds() const {
  record_every_kind();
  std::vector<kind_key> out;
  for (const auto& [type, cache] : kinds_) {
    out.push_back(type);
  }
  return out;
}

std::size_t object_store::total() const {
  record_every_kind();
  std::size_t sum = 0;
  for (const auto& [type, cache] : kinds_) {
    sum += cache.by_key.size();
  }
  return sum;
}

}  // namespace sextant
