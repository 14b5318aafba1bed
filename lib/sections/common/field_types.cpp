#include "sections/common/field_types.hpp"

#include <string>

#include "util/json.hpp"

namespace sextant {
namespace {

const packed_value* at_path(const packed_value& body, std::string_view path) {
  const packed_value* at = &body;
  while (at != nullptr && !path.empty()) {
    std::size_t dot = path.find('.');
    at = find(*at, {path.substr(0, dot)});
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return at;
}

bool has_type(const packed_value& value, field_type type) {
  switch (type) {
    case field_type::string:
      return value.is_string();
    case field_type::integer:
      return value.is_number_integer();
    case field_type::number:
      return value.is_number();
    case field_type::boolean:
      return value.is_boolean();
    case field_type::array:
      return value.is_array();
    case field_type::object:
    case field_type::map:
      return value.is_object();
  }
  return false;
}

}  // namespace

std::string_view type_words(field_type type) {
  switch (type) {
    case field_type::string:
      return "a string";
    case field_type::integer:
      return "an integer";
    case field_type::number:
      return "a number";
    case field_type::boolean:
      return "true or false";
    case field_type::array:
      return "a list";
    case field_type::object:
      return "an object";
    case field_type::map:
      return "a map";
  }
  return "of its type";
}

std::string wrong_type_sentence(std::string_view what, field_type expected) {
  return std::string(what) + " is not " + std::string(type_words(expected)) + "; it is left out.";
}

std::optional<std::string> wrong_type_note(const packed_value& body, const expected_field& field) {
  const packed_value* at = at_path(body, field.path);
  if (at == nullptr || at->is_null() || has_type(*at, field.type)) {
    return std::nullopt;
  }
  return wrong_type_sentence(field.path, field.type);
}

void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields,
                      std::vector<std::string>& notes) {
  for (const expected_field& field : fields) {
    if (auto note = wrong_type_note(body, field)) {
      notes.push_back(std::move(*note));
    }
  }
}

void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view) {
  for (const expected_field& field : fields) {
    if (auto note = wrong_type_note(body, field)) {
      view.note(*note);
    }
  }
}

}  // namespace sextant
