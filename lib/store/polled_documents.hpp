#pragma once
// Documents read beside the watched kinds, one per object (Kueue's pending workloads of a
// ClusterQueue), with when each was read. Views ask for a document through view_context; the
// asking is remembered so that the live source reads only what somebody looks at.
//
// Owned by the event loop with the object store; not thread-safe.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "store/object.hpp"
#include "store/packed_value.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace sextant {

struct document_key {
  std::string id;  // the section's name for the document: "pendingworkloads"
  std::string namespace_;
  std::string name;

  auto operator<=>(const document_key&) const = default;
};

// A document a section reads beside its watched kinds, in live mode only: one GET per object of
// kind `of` that a view asks about (view_context::document), repeated every `interval` while
// views keep asking, from an aggregated API such as Kueue's visibility API. The path is
// /apis/<group>/<version>/[namespaces/<ns>/]<resource>/<name>/<subresource>.
struct polled_document {
  std::string id;  // the key views ask by: "pendingworkloads"
  kind_key of;     // {"kueue.x-k8s.io", "ClusterQueue"}: whose names the documents are read for
  std::string group;
  std::vector<std::string> versions;  // preferred first; the first the cluster serves is read
  std::string resource;
  std::string subresource;
  bool namespaced = false;
  std::chrono::seconds interval{15};
};

struct polled_document_entry {
  packed_body packed;
  const packed_value& body() const { return packed.root(); }
  time_point read_at;
};

class polled_documents {
 public:
  using steady = std::chrono::steady_clock;

  void set(const document_key& key, json body, time_point read_at);
  void erase(const document_key& key);
  // Drops every document of `id` (its API is no longer served).
  void erase_all(const std::string& id);
  const polled_document_entry* find(const document_key& key) const;

  // Why a document is not there, so that a view can say "unknown because ..." rather than show
  // nothing: the last read of this one failed (`key`), or its API cannot be read at all (`id`).
  // Set by the live source; a successful read of the document forgets its own failure.
  void set_missing(const document_key& key, std::string why);
  void set_missing_all(const std::string& id, std::string why);  // empty `why`: readable again
  // The failure of the document itself, else of its API; empty when it was simply not read yet.
  std::string missing_because(const document_key& key) const;

  // A view wanted this document now. Const because asking changes no document.
  void ask(const document_key& key) const;
  // The documents of `id` asked for at or after `since`; older asks are forgotten.
  std::vector<document_key> asked_since(const std::string& id, steady::time_point since);
  // Changes whenever a document is set or dropped: views that read documents key on it.
  std::uint64_t generation() const { return generation_; }

 private:
  std::map<document_key, polled_document_entry> documents_;
  std::map<document_key, std::string> failed_;
  std::map<std::string, std::string> unavailable_;  // per document id
  mutable std::map<document_key, steady::time_point> asked_;
  std::uint64_t generation_ = 0;
};

}  // namespace sextant
