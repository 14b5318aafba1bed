#pragma once
// Small readers that turn DRA fields into what views show: quantities, attribute values, CEL
// selectors and opaque configuration as text. None throws; a value of an unexpected type is
// reported through the `reading_notes` of the caller, which ends up in the view's notes.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sections/common/field_types.hpp"
#include "store/packed_value.hpp"
#include "util/quantity.hpp"

namespace sextant::dra {

// Sentences about fields that could not be read, collected while reading one object.
struct reading_notes {
  std::vector<std::string> sentences;

  void add(std::string sentence);
  // A value there but of another type, in the toolkit's words (common/field_types.hpp).
  void wrong_type(std::string_view what, field_type expected);
};

// A capacity entry: a bare quantity (v1alpha3) or {value, requestPolicy} (v1beta1 and later).
std::string capacity_value(const packed_value& entry);
// Every capacity of a device as {name: quantity text}.
json capacity_map(const packed_value& capacity, reading_notes& notes, std::string_view device);

// An attribute's value: the member of {int, bool, string, version, ints, bools, strings,
// versions} that is set; null with a note when none is.
json attribute_value(const packed_value& attribute, reading_notes& notes, std::string_view name);
json attribute_map(const packed_value& attributes, reading_notes& notes, std::string_view device);

// `selectors[].cel.expression` as a list of strings, in order.
json cel_expressions(const packed_value& selectors, reading_notes& notes, std::string_view owner);

// JSON as indented text, invalid UTF-8 replaced: opaque driver parameters are shown this way.
std::string json_text(const packed_value& value);

// The member `key` of an object, or a null value: lets readers pass optional members on.
const packed_value& member(const packed_value& object, std::string_view key);

// The string at `path`, or null: for view fields that are "as written or absent".
json string_or_null(const packed_value& root, std::initializer_list<path_step> path);

// A list of strings from an array of strings; other elements are skipped.
json string_array(const packed_value& value);

// The note every view with CEL selectors carries.
inline constexpr std::string_view cel_note =
    "CEL selectors are shown as written. Sextant does not evaluate them and does not say which devices "
    "would match: only the scheduler can.";

}  // namespace sextant::dra
