#pragma once
// Reads an object once per render: every view of it (state, summary, details) renders from the
// same reading, with its state, since and notes, instead of reading the object again for each.
//   const auto reading = read_once(cluster, context, read_cluster);
//   reading->state ...
// Outside a render (problem rules, tests) there is no memo and the object is read afresh.
#include <memory>
#include <string>
#include <typeindex>
#include <vector>

#include "sections/section.hpp"

namespace sextant {

template <class Reading, class Read>
std::shared_ptr<const Reading> read_once_with(const cached_object& object, const view_context& context, Read read) {
  if (context.readings != nullptr) {
    if (std::shared_ptr<const void> kept = context.readings->find(object, typeid(Reading))) {
      return std::static_pointer_cast<const Reading>(kept);
    }
  }
  auto reading = std::make_shared<const Reading>(read());
  if (context.readings != nullptr) {
    context.readings->keep(object, typeid(Reading), reading);
  }
  return reading;
}

// For readers of the object and the context, and for readers of the object alone.
template <class Reading>
std::shared_ptr<const Reading> read_once(const cached_object& object, const view_context& context,
                                         Reading (*read)(const cached_object&, const view_context&)) {
  return read_once_with<Reading>(object, context, [&] { return read(object, context); });
}
template <class Reading>
std::shared_ptr<const Reading> read_once(const cached_object& object, const view_context& context,
                                         Reading (*read)(const cached_object&)) {
  return read_once_with<Reading>(object, context, [&] { return read(object); });
}

// A reading's notes into a details view, in order.
inline void add_notes(const std::vector<std::string>& notes, details_view& view) {
  for (const std::string& note : notes) {
    view.note(note);
  }
}

}  // namespace sextant
