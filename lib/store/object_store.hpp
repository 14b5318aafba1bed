#pragma once
// The cache of every object the daemon holds, by kind, with lookups by label and owner.
//
// Owned by the event loop; not thread-safe by design (one thread runs the whole daemon).
// Writers are the snapshot loader and the watch reflectors; readers are interpreters, which get
// a const reference and never mutate. Listeners are told of every change so the problem engine
// can re-evaluate.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/object.hpp"

namespace sextant {

// Whether a kind's cached list is the whole truth.
struct list_completeness {
  enum class state { complete, truncated, unreadable, not_synced };
  state value = state::not_synced;
  std::string reason;  // plain words: "cut at 5000 Workloads", "forbidden by RBAC"

  bool complete() const { return value == state::complete; }
};

// The reason of a list cut at its cap: "cut at 500 Resource Slices".
std::string cut_reason(std::size_t cap, std::string_view noun);

class object_store {
 public:
  enum class change_type { added, modified, deleted };
  struct change {
    change_type type;
    object_ptr object;  // the new object, or the last known one for a delete
  };
  using listener = std::function<void(const change&)>;

  // Adds or replaces one object. Keeps `first_seen` of an earlier object with the same uid.
  void upsert(object_ptr object);
  // Removes one object; returns whether it was there.
  bool remove(const kind_key& type, const std::string& namespace_, const std::string& name);
  // Replaces every object of a kind at once (a relist): objects missing from `objects` are
  // deleted, the rest upserted. Listeners see the difference only.
  void replace_all(const kind_key& type, std::vector<object_ptr> objects);
  // Drops a kind entirely (its resource is no longer served).
  void forget(const kind_key& type);

  object_ptr get(const kind_key& type, const std::string& namespace_, const std::string& name) const;
  // Every object of a kind, ordered by namespace then name; `namespace_` narrows when set.
  std::vector<object_ptr> list(const kind_key& type, const std::optional<std::string>& namespace_ = std::nullopt) const;
  std::size_t count(const kind_key& type) const;
  // Objects of a kind carrying label `key` = `value` (indexed when declared, else scanned).
  std::vector<object_ptr> with_label(const kind_key& type, const std::string& key, const std::string& value) const;
  // Objects of a kind with an ownerReference to `owner_uid`.
  std::vector<object_ptr> owned_by(const kind_key& type, const std::string& owner_uid) const;

  // Label keys worth an index for a kind (declared by sections before loading).
  void index_label(const kind_key& type, const std::string& label_key);

  void set_completeness(const kind_key& type, list_completeness completeness);
  list_completeness completeness(const kind_key& type) const;

  std::vector<kind_key> kinds() const;
  std::size_t total() const;

  void add_listener(listener on_change) { listeners_.push_back(std::move(on_change)); }

 private:
  struct kind_cache {
    std::map<std::string, object_ptr> by_key;
    std::unordered_map<std::string, std::set<std::string>> keys_by_owner;
    // label key -> label value -> object keys
    std::map<std::string, std::unordered_map<std::string, std::set<std::string>>> keys_by_label;
    list_completeness completeness;
  };

  void index(kind_cache& cache, const object_ptr& object);
  void unindex(kind_cache& cache, const object_ptr& object);
  void notify(change_type type, const object_ptr& object);
  std::vector<object_ptr> resolve(const kind_cache& cache, const std::set<std::string>& keys) const;

  std::map<kind_key, kind_cache> kinds_;
  std::vector<listener> listeners_;
};

}  // namespace sextant
