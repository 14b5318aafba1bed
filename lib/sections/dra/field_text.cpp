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

void reading_notes::wrong_type(std::string_view what, std::string_view expected) {
  add(std::string(what) + " is not " + std::string(expected) + "; it is left out.");
}

std::string quantity_text(const json& value) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number()) {
    return value.dump();
  }
  return {};
}

std::string capacity_value(const json& entry) {
  if (entry.is_object()) {
    const json* value = find(entry, {"value"});
    return value == nullptr ? std::string() : quantity_text(*value);
  }
  return quantity_text(entry);
}

json capacity_map(const json& capacity, reading_notes& notes, std::string_view device) {
  json out = json::object();
  if (capacity.is_null()) {
    return out;
  }
  if (!capacity.is_object()) {
    notes.wrong_type("The capacity of device " + std::string(device), "a map");
    return out;
  }
  for (const auto& [name, entry] : capacity.items()) {
    std::string text = capacity_value(entry);
    if (text.empty()) {
      notes.add("Capacity " + name + " of device " + std::string(device) + " has no readable quantity.");
      continue;
    }
    out[name] = std::move(text);
  }
  return out;
}

json attribute_value(const json& attribute, reading_notes& notes, std::string_view name) {
  if (attribute.is_object()) {
    for (const char* member : {"string", "int", "bool", "version", "strings", "ints", "bools", "versions"}) {
      auto it = attribute.find(member);
      if (it != attribute.end() && !it->is_null()) {
        return *it;
      }
    }
  }
  notes.add("Attribute " + std::string(name) + " has no value of a known type.");
  return nullptr;
}

json attribute_map(const json& attributes, reading_notes& notes, std::string_view device) {
  json out = json::object();
  if (attributes.is_null()) {
    return out;
  }
  if (!attributes.is_object()) {
    notes.wrong_type("The attributes of device " + std::string(device), "a map");
    return out;
  }
  for (const auto& [name, attribute] : attributes.items()) {
    out[name] = attribute_value(attribute, notes, name);
  }
  return out;
}

json cel_expressions(const json& selectors, reading_notes& notes, std::string_view owner) {
  json out = json::array();
  if (selectors.is_null()) {
    return out;
  }
  if (!selectors.is_array()) {
    notes.wrong_type("The selectors of " + std::string(owner), "a list");
    return out;
  }
  for (const json& selector : selectors) {
    if (auto expression = get_string(selector, {"cel", "expression"})) {
      out.push_back(*expression);
    } else {
      notes.add("A selector of " + std::string(owner) + " has no CEL expression Sextant can show.");
    }
  }
  return out;
}

std::string json_text(const json& value) {
  return value.dump(2, ' ', false, json::error_handler_t::replace);
}

const json& member(const json& object, std::string_view key) {
  static const json null_value = nullptr;
  if (!object.is_object()) {
    return null_value;
  }
  auto it = object.find(key);
  return it == object.end() ? null_value : *it;
}

json string_or_null(const json& root, std::initializer_list<path_step> path) {
  const json* value = find(root, path);
  return value != nullptr && value->is_string() ? *value : json(nullptr);
}

json string_array(const json& value) {
  json out = json::array();
  if (!value.is_array()) {
    return out;
  }
  for (const json& element : value) {
    if (element.is_string()) {
      out.push_back(element);
    }
  }
  return out;
}

}  // namespace sextant::dra
