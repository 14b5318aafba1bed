#pragma once
// Small helpers for an ingest profile's transform (ingest_profile::transform), which rewrites a
// masked, packed body into the one cached: copy members, skip some, summarise others. A section
// writes its own transform with these (Kueue's Workload summary is the model).
#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "store/packed_value.hpp"
#include "store/packed_writer.hpp"

namespace sextant {

// Writes an object member by member through `member(key, value)`, which writes the member or
// skips it, then `after()`; anything but an object is copied as it is.
template <typename Member, typename After>
void rewrite_object(const packed_value& object, packed_writer& out, Member member, After after) {
  if (!object.is_object()) {
    out.write(object);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : object.items()) {
    member(key, value);
  }
  after();
  out.end_object();
}

template <typename Member>
void rewrite_object(const packed_value& object, packed_writer& out, Member member) {
  rewrite_object(object, out, member, [] {});
}

// Writes each element of an array through `element(value)`; anything else is copied.
template <typename Element>
void rewrite_array(const packed_value& array, packed_writer& out, Element element) {
  if (!array.is_array()) {
    out.write(array);
    return;
  }
  out.begin_array();
  for (const packed_value& value : array) {
    element(value);
  }
  out.end_array();
}

// Whether `key` is one of `keys`: for the members a rewrite keeps.
inline bool one_of(std::string_view key, std::initializer_list<std::string_view> keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace sextant
