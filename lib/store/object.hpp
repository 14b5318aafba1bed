#pragma once
// One cached Kubernetes object: its (pruned, packed) body and the identity fields every index reads.
//
// Objects are immutable once cached and shared by pointer: a list or a view holds them without
// copying, and an update replaces the pointer. The store is indifferent to API version: the
// interpreters read fields, so `api_version` is kept only to report it.
#include <memory>
#include <string>
#include <string_view>

#include "store/packed_value.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace sextant {

// A kind, independent of its version: "kueue.x-k8s.io" + "Workload". The core group is "".
struct kind_key {
  std::string group;
  std::string kind;

  auto operator<=>(const kind_key&) const = default;
  std::string to_string() const { return group.empty() ? kind : kind + "." + group; }
};

struct cached_object {
  cached_object() = default;
  // A copy owns a copy of the body, and its identity views are rebound to it.
  cached_object(const cached_object& other);
  cached_object& operator=(const cached_object&) = delete;

  packed_body packed;
  kind_key type;
  // The identity fields are views into `packed`, which holds them anyway: a second copy of each
  // string cost a Pod about a fifth of its cache (bench/ingest_bench). They live as long as the
  // object does; copy one into a std::string to keep it longer.
  std::string_view api_version;
  std::string_view namespace_;
  std::string_view name;
  std::string_view uid;
  std::string_view resource_version;
  // When this daemon first saw an object with this uid: the fallback `since` of problems.
  time_point first_seen;

  const packed_value& body() const { return packed.root(); }
  // "namespace/name", or "name" for cluster-scoped objects: the key inside one kind.
  std::string key() const;
  // What this object holds: the record, its packed body and the type's strings too long to be
  // kept inline. The store's indexes and the allocator's own overhead are not counted.
  std::size_t held_bytes() const;
};

// Orders objects of one kind as their keys ("namespace/name", or "name") sort, without building
// the keys: the store's order, and the order pages continue in.
bool key_less(std::string_view namespace_a, std::string_view name_a, std::string_view namespace_b,
              std::string_view name_b);

using object_ptr = std::shared_ptr<const cached_object>;

// The group of an apiVersion: "apps/v1" -> "apps", "v1" -> "".
std::string_view group_of(std::string_view api_version);
// The version of an apiVersion: "apps/v1" -> "v1".
std::string_view version_of(std::string_view api_version);

// Builds a cached object from a decoded body; fills the identity fields from it. Returns null
// with `error` set when the body lacks what every object must have (kind, apiVersion, name).
object_ptr make_object(packed_body body, time_point first_seen, std::string* error);
object_ptr make_object(const json& body, time_point first_seen, std::string* error);

}  // namespace sextant
