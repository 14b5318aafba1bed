#pragma once
// Where a kind's objects live when another object says (the GPU Operator's DaemonSets live in the
// namespace its Cluster Policy names in status.namespace), and which namespaces the cached
// objects name: sections declare the source, live mode watches the kind only there.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/object.hpp"
#include "store/object_store.hpp"

namespace sextant {

struct namespace_source {
  kind_key type;                   // the kind whose objects name the namespace
  std::vector<std::string> field;  // where they name it: {"status", "namespace"}
};

// The namespaces that the store's objects of `source.type` name in `source.field`, or nullopt
// while that kind is not read in full (so what it names is not known). A name that is not a
// namespace name (a DNS label) is not taken, so an object cannot steer a watch's path.
std::optional<std::set<std::string>> namespaces_named(const object_store& store, const namespace_source& source);

}  // namespace sextant
