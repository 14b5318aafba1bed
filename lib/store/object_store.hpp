#pragma once
// The cache of every object the daemon holds, by kind, with lookups by label and owner.
//
// Owned by the event loop; not thread-safe by design (one thread runs the whole daemon).
// Writers are the snapshot loader and the watch reflectors; readers are interpreters, which get
// a const reference and never mutate. Listeners are told of every change so the problem engine
// can re-evaluate.
#include <absl/container/btree_map.h>
#include <absl/container/btree_set.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/object.hpp"
#include "store/view_reads.hpp"
#include "util/time.hpp"

namespace sextant {

// Whether a kind's cached list is the whole truth.
struct list_completeness {
  enum class state { complete, truncated, unreadable, not_synced };
  state value = state::not_synced;
  std::string reason;  // plain words: "cut at 5000 Workloads", "forbidden by RBAC"

  bool complete() const { return value == state::complete; }
};

// A kind whose watch is broken (the API server unreachable, failing, or throttling): what the
// store holds of it was true at `since` and may have changed since. Views keep showing it and say
// so; nothing is dropped or judged differently for it.
struct watch_interruption {
  time_point since;
  std::string reason;  // the failure that began it, in plain words
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
  bool remove(const kind_key& type, std::string_view namespace_, std::string_view name);
  // Replaces every object of a kind at once (a relist): objects missing from `objects` are
  // deleted, the rest upserted. Listeners see the difference only.
  void replace_all(const kind_key& type, std::vector<object_ptr> objects);
  // Drops a kind entirely (its resource is no longer served).
  void forget(const kind_key& type);

  object_ptr get(const kind_key& type, std::string_view namespace_, std::string_view name) const;
  // Every object of a kind, ordered by namespace then name; `namespace_` narrows when set.
  std::vector<object_ptr> list(const kind_key& type, std::optional<std::string_view> namespace_ = std::nullopt) const;
  std::size_t count(const kind_key& type) const;
  // The bytes a kind's objects hold (cached_object::held_bytes, summed); for /metrics and bench/.
  std::size_t held_bytes(const kind_key& type) const;
  // Objects of a kind carrying label `key` = `value` (indexed when declared, else scanned).
  // Ordered as `list` orders them.
  std::vector<object_ptr> with_label(const kind_key& type, const std::string& key, std::string_view value) const;
  // Objects of a kind with an ownerReference to `owner_uid`, ordered as `list` orders them.
  std::vector<object_ptr> owned_by(const kind_key& type, std::string_view owner_uid) const;

  // Label keys worth an index for a kind (declared by sections before loading).
  void index_label(const kind_key& type, const std::string& label_key);

  void set_completeness(const kind_key& type, list_completeness completeness);
  list_completeness completeness(const kind_key& type) const;

  // Marks a kind's watch broken (from the first failure on; a later failure keeps the first
  // time and words) or, with nullopt, whole again. Changes the kind's generation only when the
  // mark comes or goes, so that cached views say it at once and no more often.
  void set_interrupted(const kind_key& type, std::optional<watch_interruption> interruption);
  std::optional<watch_interruption> interrupted(const kind_key& type) const;

  std::vector<kind_key> kinds() const;
  std::size_t total() const;

  void add_listener(listener on_change) { listeners_.push_back(std::move(on_change)); }
  // Told when a kind's completeness changes state (an empty list synced changes no object, yet
  // the problem engine can now judge it).
  void add_completeness_listener(std::function<void(const kind_key&)> on_change) {
    completeness_listeners_.push_back(std::move(on_change));
  }

  // How many times a kind has changed (objects, completeness, indexes), as a number drawn from
  // one counter: it never repeats, even after `forget`. 0 for a kind never touched.
  std::uint64_t generation(const kind_key& type) const;
  // The counter itself: changes whenever any kind changes.
  std::uint64_t generation() const { return generation_; }
  // While set, every read notes its kind into `reads` (a view's render records what it read).
  // Const: recording changes no object. Null stops recording.
  void record_reads(view_reads* reads) const { recording_ = reads; }
  view_reads* recording() const { return recording_; }

 private:
  // An object's place in its kind: views, so that no index holds a key string of its own. Every
  // view points into an object that the same index holds, so it lives as long as its entry.
  struct object_name {
    std::string_view namespace_;
    std::string_view name;
  };
  struct key_order {
    using is_transparent = void;
    bool operator()(const object_ptr& a, const object_ptr& b) const {
      return key_less(a->namespace_, a->name, b->namespace_, b->name);
    }
    bool operator()(const object_ptr& a, const object_name& b) const {
      return key_less(a->namespace_, a->name, b.namespace_, b.name);
    }
    bool operator()(const object_name& a, const object_ptr& b) const {
      return key_less(a.namespace_, a.name, b->namespace_, b->name);
    }
  };
  // A view of a string in an object's body (an owner's uid, a label's value) -> that object.
  // B-trees (Abseil's), not one node per object: at 150 000 Pods a std::set and an
  // unordered_multimap cost 64 and 72 bytes an entry in nodes and buckets, about 17 MB, against
  // 20-45 bytes packed into a B-tree's wide nodes (README, "the envelope": RSS against the cache).
  using object_index = absl::btree_multimap<std::string_view, object_ptr>;
  struct kind_cache {
    absl::btree_set<object_ptr, key_order> by_key;
    object_index by_owner;
    std::map<std::string, object_index> by_label;  // label key -> its index
    list_completeness completeness;
    std::optional<watch_interruption> interrupted;
    std::size_t held_bytes = 0;  // kept as objects come and go: /metrics reads it at every scrape
  };

  void index(kind_cache& cache, const object_ptr& object);
  void unindex(kind_cache& cache, const object_ptr& object);
  void notify(change_type type, const object_ptr& object);
  static std::vector<object_ptr> matches(const object_index& index, std::string_view value);

  void changed(const kind_key& type) { generations_[type] = ++generation_; }
  void record(const kind_key& type) const;
  void record_every_kind() const;

  std::map<kind_key, kind_cache> kinds_;
  std::vector<listener> listeners_;
  std::vector<std::function<void(const kind_key&)>> completeness_listeners_;
  std::map<kind_key, std::uint64_t> generations_;  // kept across `forget`, so never reused
  std::uint64_t generation_ = 0;
  mutable view_reads* recording_ = nullptr;
};

}  // namespace sextant
