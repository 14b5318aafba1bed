#pragma once
// Notes for fields an object carries with the wrong JSON type: the readers (util/json.hpp) skip
// them without throwing, and a details view says which were left out.
#include <initializer_list>
#include <string_view>

#include "sections/section.hpp"
#include "store/packed_value.hpp"

namespace sextant {

// A field the views read, by its dotted path, and the JSON type it must have.
enum class field_type { string, integer, boolean, array, object };
struct expected_field {
  std::string_view path;  // "spec.queueName"
  field_type type;
};
// The readers skip a field of another type; this says so in a details view's notes, in the
// words every section uses ("spec.queueName is not a string; it is left out."), once per field.
void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view);

}  // namespace sextant
