#pragma once
// What one render of a view read: the kinds (with each one's generation when first read), the
// polled documents, the clock and the problems. A cached view stays valid while none of these
// has changed, so it is rendered once per change instead of once per request.
//
// Filled while a view renders (object_store::record_reads, view_context::reads); owned by the
// renderer. Not thread-safe, like the store.
#include <cstdint>
#include <map>
#include <set>

#include "store/object.hpp"
#include "store/polled_documents.hpp"

namespace sextant {

struct view_reads {
  std::map<kind_key, std::uint64_t> kinds;  // kind -> its generation when first read
  // Set by reads over every kind (`kinds()`, `total()`): any change anywhere counts.
  bool every_kind = false;
  std::uint64_t every_kind_generation = 0;
  std::set<document_key> documents;  // asked for again whenever the cached view is served
  std::uint64_t documents_generation = 0;
  bool clock = false;     // the view read `now`: its output depends on the time
  bool problems = false;  // the view shows current problems
};

}  // namespace sextant
