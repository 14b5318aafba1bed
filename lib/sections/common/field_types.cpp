#include "sections/common/field_types.hpp"

#include <string>

#include "util/json.hpp"

namespace sextant {

void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view) {
  for (const expected_field& field : fields) {
    const packed_value* at = &body;
    std::string_view rest = field.path;
    while (at != nullptr && !rest.empty()) {
      std::size_t dot = rest.find('.');
      at = find(*at, {rest.substr(0, dot)});
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    if (at == nullptr || at->is_null()) {
      continue;
    }
    const char* expected = nullptr;
    switch (field.type) {
      case field_type::string:
        expected = at->is_string() ? nullptr : "a string";
        break;
      case field_type::integer:
        expected = at->is_number_integer() ? nullptr : "an integer";
        break;
      case field_type::boolean:
        expected = at->is_boolean() ? nullptr : "true or false";
        break;
      case field_type::array:
        expected = at->is_array() ? nullptr : "a list";
        break;
      case field_type::object:
        expected = at->is_object() ? nullptr : "an object";
        break;
    }
    if (expected != nullptr) {
      view.note(std::string(field.path) + " is not " + expected + "; it is left out.");
    }
  }
}

}  // namespace sextant
