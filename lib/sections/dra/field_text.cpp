#include "sections/dra/field_text.hpp"

namespace sextant::dra {

void reading_notes::add(std::string sentence) {
  for (const std::string& known : sentences) {
    if (known == sentence) {
      return;
    }
  }
  sentences.push_back(std::move(sentence));
}

void reading_notes::wrong_type(std::string_view what, field_type expected) {
  add(wrong_type_sentence(what, expected));
}

std::string capacity_value(const packed_value& entry) {
  if (entry.is_object()) {
    const packed_value* value = find(entry, {"value"});
    return value == nullptr ? std::string() : quantity_text(*value);
  }
  return quantity_text(entry);
}

json capacity_map(const packed_value& capacity, reading_notes& notes, std::string_view device) {
  json out = json::object();
  if (capacity.is_null()) {
    return out;
  }
  if (!capacity.is_object()) {
    notes.wrong_type("The capacity of device " + std::string(device), field_type::map);
    return out;
  }
  for (const auto& [name, entry] : capacity.items()) {
    std::string text = capacity_value(entry);
    if (text.empty()) {
      notes.add("Capacity " + std::string(name) + " of device " + std::string(device) + " has no readable quantity.");
      continue;
    }
    out[std::string(name)] = std::move(text);
  }
  return out;
}

json attribute_value(const packed_value& attribute, reading_notes& notes, std::string_view name) {
  if (attribute.is_object()) {
    for (const char* member : {"string", "int", "bool", "version", "strings", "ints", "bools", "versions"}) {
      if (const packed_value* value = attribute.member(member); value != nullptr && !value->is_null()) {
        return *value;
      }
    }
  }
  notes.add("Attribute " + std::string(name) + " has no value of a known type.");
  return nullptr;
}

json attribute_map(const packed_value& attributes, reading_notes& notes, std::string_view device) {
  json out = json::object();
  if (attributes.is_null()) {
    return out;
  }
  if (!attributes.is_object()) {
    notes.wrong_type("The attributes of device " + std::string(device), field_type::map);
    return out;
  }
  for (const auto& [name, attribute] : attributes.items()) {
    out[name] = attribute_value(attribute, notes, name);
  }
  return out;
}

json cel_expressions(const packed_value& selectors, reading_notes& notes, std::string_view owner) {
  json out = json::array();
  if (selectors.is_null()) {
    return out;
  }
  if (!selectors.is_array()) {
    notes.wrong_type("The selectors of " + std::string(owner), field_type::array);
    return out;
  }
  for (const packed_value& selector : selectors) {
    if (auto expression = get_string(selector, {"cel", "expression"})) {
      out.push_back(*expression);
    } else {
      notes.add("A selector of " + std::string(owner) + " has no CEL expression Sextant can show.");
    }
  }
  return out;
}

std::string json_text(const packed_value& value) {
  return json(value).dump(2, ' ', false, json::error_handler_t::replace);
}

const packed_value& member(const packed_value& object, std::string_view key) {
  return object[key];
}

json string_or_null(const packed_value& root, std::initializer_list<path_step> path) {
  const packed_value* value = find(root, path);
  return value != nullptr && value->is_string() ? *value : json(nullptr);
}

json string_array(const packed_value& value) {
  json out = json::array();
  if (!value.is_array()) {
    return out;
  }
  for (const packed_value& element : value) {
    if (element.is_string()) {
      out.push_back(element);
    }
  }
  return out;
}

}  // namespace sextant::dra
