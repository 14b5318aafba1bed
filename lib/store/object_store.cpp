#include "store/object_store.hpp"

namespace sextant {

void object_store::index(kind_cache& cache, const object_ptr& object) {
  const std::string key = object->key();
  for (const packed_value& owner : array_or_empty(object->body(), {"metadata", "ownerReferences"})) {
    if (auto uid = get_string(owner, {"uid"})) {
      cache.keys_by_owner[*uid].insert(key);
    }
  }
  const json& labels = object_or_empty(object->body(), {"metadata", "labels"});
  for (auto& [label_key, values] : cache.keys_by_label) {
    auto it = labels.find(label_key);
    if (it != labels.end() && it->is_string()) {
      values[it->get<std::string>()].insert(key);
    }
  }
}

void object_store::unindex(kind_cache& cache, const object_ptr& object) {
  const std::string key = object->key();
  for (const packed_value& owner : array_or_empty(object->body(), {"metadata", "ownerReferences"})) {
    if (auto owner_uid = get_string(owner, {"uid"})) {
      auto it = cache.keys_by_owner.find(*owner_uid);
      if (it != cache.keys_by_owner.end()) {
        it->second.erase(key);
        if (it->second.empty()) {
          cache.keys_by_owner.erase(it);
        }
      }
    }
  }
  const json& labels = object_or_empty(object->body(), {"metadata", "labels"});
  for (auto& [label_key, values] : cache.keys_by_label) {
    auto it = labels.find(label_key);
    if (it != labels.end() && it->is_string()) {
      auto value = values.find(it->get<std::string>());
      if (value != values.end()) {
        value->second.erase(key);
        if (value->second.empty()) {
          values.erase(value);
        }
      }
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
  const std::string key = object->key();
  auto it = cache.by_key.find(key);
  change_type type = change_type::added;
  if (it != cache.by_key.end()) {
    type = change_type::modified;
    if (it->second->uid == object->uid && it->second->first_seen < object->first_seen) {
      auto kept = std::make_shared<cached_object>(*object);
      kept->first_seen = it->second->first_seen;
      object = std::move(kept);
    }
    unindex(cache, it->second);
    it->second = object;
  } else {
    cache.by_key.emplace(key, object);
  }
  index(cache, object);
  changed(object->type);
  notify(type, object);
}

bool object_store::remove(const kind_key& type, const std::string& namespace_, const std::string& name) {
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return false;
  }
  auto it = cache->second.by_key.find(namespace_.empty() ? name : namespace_ + "/" + name);
  if (it == cache->second.by_key.end()) {
    return false;
  }
  object_ptr gone = it->second;
  unindex(cache->second, gone);
  cache->second.by_key.erase(it);
  changed(type);
  notify(change_type::deleted, gone);
  return true;
}

void object_store::replace_all(const kind_key& type, std::vector<object_ptr> objects) {
  std::set<std::string> fresh;
  for (const object_ptr& object : objects) {
    fresh.insert(object->key());
  }
  std::vector<object_ptr> stale;
  if (auto cache = kinds_.find(type); cache != kinds_.end()) {
    for (const auto& [key, object] : cache->second.by_key) {
      if (!fresh.contains(key)) {
        stale.push_back(object);
      }
    }
  }
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
  std::vector<object_ptr> gone;
  for (const auto& [key, object] : cache->second.by_key) {
    gone.push_back(object);
  }
  kinds_.erase(cache);
  changed(type);
  for (const object_ptr& object : gone) {
    notify(change_type::deleted, object);
  }
}

object_ptr object_store::get(const kind_key& type, const std::string& namespace_, const std::string& name) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return nullptr;
  }
  auto it = cache->second.by_key.find(namespace_.empty() ? name : namespace_ + "/" + name);
  return it == cache->second.by_key.end() ? nullptr : it->second;
}

std::vector<object_ptr> object_store::list(const kind_key& type, const std::optional<std::string>& namespace_) const {
  record(type);
  std::vector<object_ptr> out;
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return out;
  }
  const auto& by_key = cache->second.by_key;
  if (!namespace_) {
    out.reserve(by_key.size());
    for (const auto& [key, object] : by_key) {
      out.push_back(object);
    }
    return out;
  }
  const std::string prefix = *namespace_ + "/";
  for (auto it = by_key.lower_bound(prefix); it != by_key.end() && it->first.starts_with(prefix); ++it) {
    out.push_back(it->second);
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
  if (cache == kinds_.end()) {
    return 0;
  }
  std::size_t bytes = 0;
  for (const auto& [key, object] : cache->second.by_key) {
    bytes += object->held_bytes();
  }
  return bytes;
}

std::vector<object_ptr> object_store::resolve(const kind_cache& cache, const std::set<std::string>& keys) const {
  std::vector<object_ptr> out;
  for (const std::string& key : keys) {
    if (auto it = cache.by_key.find(key); it != cache.by_key.end()) {
      out.push_back(it->second);
    }
  }
  return out;
}

std::vector<object_ptr> object_store::with_label(const kind_key& type, const std::string& key,
                                                 const std::string& value) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return {};
  }
  if (auto indexed = cache->second.keys_by_label.find(key); indexed != cache->second.keys_by_label.end()) {
    auto keys = indexed->second.find(value);
    return keys == indexed->second.end() ? std::vector<object_ptr>{} : resolve(cache->second, keys->second);
  }
  std::vector<object_ptr> out;
  for (const auto& [object_key, object] : cache->second.by_key) {
    if (auto label = get_string(object->body(), {"metadata", "labels", key}); label && *label == value) {
      out.push_back(object);
    }
  }
  return out;
}

std::vector<object_ptr> object_store::owned_by(const kind_key& type, const std::string& owner_uid) const {
  record(type);
  auto cache = kinds_.find(type);
  if (cache == kinds_.end()) {
    return {};
  }
  auto keys = cache->second.keys_by_owner.find(owner_uid);
  return keys == cache->second.keys_by_owner.end() ? std::vector<object_ptr>{} : resolve(cache->second, keys->second);
}

void object_store::index_label(const kind_key& type, const std::string& label_key) {
  kind_cache& cache = kinds_[type];
  if (cache.keys_by_label.contains(label_key)) {
    return;
  }
  changed(type);
  auto& values = cache.keys_by_label[label_key];
  for (const auto& [key, object] : cache.by_key) {
    if (auto label = get_string(object->body(), {"metadata", "labels", label_key})) {
      values[*label].insert(key);
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
