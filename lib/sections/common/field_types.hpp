#pragma once
// Notes for fields an object carries with the wrong JSON type: the readers (util/json.hpp) skip
// them without throwing, and the views say which were left out, in one set of words for every
// section: "spec.queueName is not a string; it is left out."
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sections/section.hpp"
#include "store/packed_value.hpp"

namespace sextant {

// The JSON type a field must have. `number` takes any number (counts the schema types as
// integer but a hand-written object may carry 2.0); `map` is an object of names to values, named
// as the user knows it (a node selector, labels).
enum class field_type { string, integer, number, boolean, array, object, map };
// A field the views read, by its dotted path, and the JSON type it must have.
struct expected_field {
  std::string_view path;  // "spec.queueName"
  field_type type;
};

// The words for a type in a note: "a string", "an integer", "a number", "true or false",
// "a list", "an object", "a map".
std::string_view type_words(field_type type);

// "<what> is not <type words>; it is left out.": the one sentence for a wrong-typed value, for
// readers that name it by its meaning ("The attributes of device gpu-1") rather than its path.
std::string wrong_type_sentence(std::string_view what, field_type expected);

// The note for a field that is there, not null, and of another type; nullopt otherwise.
std::optional<std::string> wrong_type_note(const packed_value& body, const expected_field& field);

// One note per wrong-typed field, in the order given: into a reading's notes, or a details view's.
void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields,
                      std::vector<std::string>& notes);
void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view);

}  // namespace sextant
