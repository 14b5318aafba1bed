#include "sections/dra/device_requests.hpp"

#include <algorithm>

namespace sextant::dra {
namespace {

json int_or_null(const packed_value& object, const char* key) {
  auto value = get_int(object, {key});
  return or_null(value);
}

json bool_or_null(const packed_value& object, const char* key) {
  auto value = get_bool(object, {key});
  return or_null(value);
}

// How many devices a request or alternative asks for, in words, as the API server defaults it
// (an empty mode is ExactCount, a count of 0 is 1).
std::string amount_text(const packed_value& fields) {
  std::string mode = string_or(fields, {"allocationMode"}, "ExactCount");
  std::string device_class = string_or(fields, {"deviceClassName"}, "(no class)");
  if (mode == "All") {
    return "all devices of class " + device_class;
  }
  std::int64_t count = get_int(fields, {"count"}).value_or(0);
  if (count <= 0) {
    count = 1;
  }
  return std::to_string(count) + (count == 1 ? " device" : " devices") + " of class " + device_class;
}

// The fields an exact request and an alternative share.
json read_exact_fields(const packed_value& fields, reading_notes& notes, const std::string& owner) {
  json capacity = json::object();
  if (const packed_value* requests = find(fields, {"capacity", "requests"})) {
    if (requests->is_object()) {
      for (const auto& [name, quantity] : requests->items()) {
        capacity[name] = quantity_text(quantity);
      }
    } else {
      notes.wrong_type("The capacity requests of " + owner, field_type::map);
    }
  }
  json tolerations = json::array();
  if (const packed_value* written = find(fields, {"tolerations"})) {
    if (written->is_array()) {
      tolerations = *written;
    } else {
      notes.wrong_type("The tolerations of " + owner, field_type::array);
    }
  }
  if (const packed_value* count = find(fields, {"count"}); count != nullptr && !count->is_number()) {
    notes.wrong_type("The count of " + owner, field_type::number);
  }
  return json{{"deviceClassName", string_or_null(fields, {"deviceClassName"})},
              {"selectors", cel_expressions(member(fields, "selectors"), notes, owner)},
              {"allocationMode", string_or_null(fields, {"allocationMode"})},
              {"count", int_or_null(fields, "count")},
              {"adminAccess", bool_or_null(fields, "adminAccess")},
              {"tolerations", std::move(tolerations)},
              {"capacity", std::move(capacity)}};
}

json read_request(const packed_value& request, reading_notes& notes, std::size_t index) {
  std::string name = string_or(request, {"name"});
  std::string owner = "request " + (name.empty() ? "#" + std::to_string(index + 1) : name);
  if (!request.is_object()) {
    notes.wrong_type("Request #" + std::to_string(index + 1), field_type::object);
    return nullptr;
  }
  // v1beta2 and v1 nest the exact request under `exactly`; older versions keep it inline.
  const packed_value* exactly = find(request, {"exactly"});
  const packed_value& exact_fields = exactly != nullptr && exactly->is_object() ? *exactly : request;
  json out = {{"name", or_null(name)}};
  json exact = read_exact_fields(exact_fields, notes, owner);
  for (auto& [key, value] : exact.items()) {
    out[key] = std::move(value);
  }
  json alternatives = json::array();
  std::vector<std::string> alternative_texts;
  if (const packed_value* first_available = find(request, {"firstAvailable"})) {
    if (!first_available->is_array()) {
      notes.wrong_type("The firstAvailable list of " + owner, field_type::array);
    } else {
      for (const packed_value& alternative : *first_available) {
        std::string sub = string_or(alternative, {"name"});
        json entry = {{"name", or_null(sub)}, {"request", name + "/" + sub}};
        json fields = read_exact_fields(alternative, notes, owner + "/" + sub);
        for (auto& [key, value] : fields.items()) {
          entry[key] = std::move(value);
        }
        entry["text"] = amount_text(alternative);
        alternative_texts.push_back(sub + ": " + entry["text"].get<std::string>());
        alternatives.push_back(std::move(entry));
      }
    }
  }
  out["firstAvailable"] = std::move(alternatives);
  if (!alternative_texts.empty()) {
    std::string text = "the first available of, in order: ";
    for (std::size_t i = 0; i < alternative_texts.size(); ++i) {
      text += (i == 0 ? "" : "; ") + alternative_texts[i];
    }
    out["text"] = std::move(text);
  } else {
    out["text"] = amount_text(exact_fields);
  }
  return out;
}

}  // namespace

json read_opaque_config(const packed_value& entry, reading_notes& notes, const std::string& owner) {
  json out = json::object();
  if (auto source = get_string(entry, {"source"})) {
    out["source"] = *source;
  }
  out["requests"] = string_array(member(entry, "requests"));
  const packed_value* opaque = find(entry, {"opaque"});
  if (opaque == nullptr || !opaque->is_object()) {
    notes.add("A configuration entry of " + owner + " has no opaque driver configuration Sextant can show.");
    out["driver"] = nullptr;
    out["parameters"] = nullptr;
    return out;
  }
  out["driver"] = string_or_null(*opaque, {"driver"});
  const packed_value* parameters = find(*opaque, {"parameters"});
  out["parameters"] = parameters == nullptr ? json(nullptr) : json(json_text(*parameters));
  return out;
}

json read_claim_spec(const packed_value& spec, reading_notes& notes) {
  json out = {{"requests", json::array()}, {"constraints", json::array()}, {"config", json::array()}};
  if (!spec.is_object()) {
    notes.add(spec.is_null() ? "The claim spec is missing; no requests can be shown."
                             : "The claim spec is not an object; no requests can be shown.");
    return out;
  }
  const packed_value* devices = find(spec, {"devices"});
  if (devices == nullptr) {
    notes.add("The claim spec has no devices section: it requests nothing.");
    return out;
  }
  if (!devices->is_object()) {
    notes.wrong_type("spec.devices", field_type::object);
    return out;
  }
  if (const packed_value* requests = find(*devices, {"requests"})) {
    if (!requests->is_array()) {
      notes.wrong_type("spec.devices.requests", field_type::array);
    } else {
      for (std::size_t i = 0; i < requests->size(); ++i) {
        json request = read_request((*requests)[i], notes, i);
        if (!request.is_null()) {
          out["requests"].push_back(std::move(request));
        }
      }
    }
  }
  for (const packed_value& constraint : array_or_empty(*devices, {"constraints"})) {
    out["constraints"].push_back({{"requests", string_array(member(constraint, "requests"))},
                                  {"matchAttribute", string_or_null(constraint, {"matchAttribute"})},
                                  {"distinctAttribute", string_or_null(constraint, {"distinctAttribute"})}});
  }
  for (const packed_value& entry : array_or_empty(*devices, {"config"})) {
    out["config"].push_back(read_opaque_config(entry, notes, "the claim"));
  }
  return out;
}

std::vector<std::string> device_classes_of(const packed_value& spec) {
  std::vector<std::string> out;
  auto add = [&out](const packed_value& fields) {
    if (auto name = get_string(fields, {"deviceClassName"}); name && !name->empty()) {
      if (std::find(out.begin(), out.end(), *name) == out.end()) {
        out.push_back(*name);
      }
    }
  };
  for (const packed_value& request : array_or_empty(spec, {"devices", "requests"})) {
    add(request);
    add(object_or_empty(request, {"exactly"}));
    for (const packed_value& alternative : array_or_empty(request, {"firstAvailable"})) {
      add(alternative);
    }
  }
  return out;
}

bool has_selectors(const json& read_spec) {
  for (const json& request : array_or_empty(read_spec, {"requests"})) {
    if (!array_or_empty(request, {"selectors"}).empty()) {
      return true;
    }
    for (const json& alternative : array_or_empty(request, {"firstAvailable"})) {
      if (!array_or_empty(alternative, {"selectors"}).empty()) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace sextant::dra
