#pragma once
// What an interpreter may read: the cache, what the cluster serves, documents read beside the
// cache (live mode only), and the time.
#include <functional>
#include <optional>
#include <string>

#include "store/object_store.hpp"
#include "store/polled_documents.hpp"
#include "store/served_kinds.hpp"
#include "util/time.hpp"

namespace sextant {

struct view_context {
  const object_store& store;
  const served_kinds& served;
  time_point now;
  // The API path of an object of a kind, or nullopt when no served resource shows that kind.
  std::function<std::optional<std::string>(const kind_key&, const std::string& namespace_, const std::string& name)>
      path_for;

  // The version the daemon reads a kind in (the version its section prefers among those the
  // cluster serves); links name it. Unset in contexts made by hand: then the server's preferred.
  std::function<std::string(const kind_key&)> version_for;

  // Documents a section polls (section::documents); null in snapshot mode and in tests that
  // give none.
  const polled_documents* documents = nullptr;

  // The path as JSON: a string, or null.
  json path_json(const kind_key& type, const std::string& namespace_, const std::string& name) const;
  // The apiVersion a link to a kind names: "resource.k8s.io/v1", "v1".
  std::string api_version(const kind_key& type) const;
  // The newest read of a polled document, or null when there is none (yet). Asking makes the
  // live source read it from now on, for as long as somebody keeps asking.
  const polled_document_entry* document(const document_key& key) const;
};

}  // namespace sextant
