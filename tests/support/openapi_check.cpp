#include "support/openapi_check.hpp"

#include <algorithm>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "snapshot/yaml_to_json.hpp"
#include "support/fixtures.hpp"

namespace sextant::testing {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream in(path);
  std::string segment;
  while (std::getline(in, segment, '/')) {
    if (!segment.empty()) {
      out.push_back(segment);
    }
  }
  return out;
}

bool is_parameter(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

bool has_type(const json& value, const std::string& type) {
  if (type == "string") {
    return value.is_string();
  }
  if (type == "integer") {
    return value.is_number_integer();
  }
  if (type == "number") {
    return value.is_number();
  }
  if (type == "boolean") {
    return value.is_boolean();
  }
  if (type == "array") {
    return value.is_array();
  }
  if (type == "object") {
    return value.is_object();
  }
  return false;
}

}  // namespace

openapi_document::openapi_document(json document) : document_(std::move(document)) {}

const openapi_document& openapi_document::merged() {
  static const openapi_document instance(
      yaml_to_json(YAML::LoadFile((source_dir() / "api" / "openapi.yaml").string())));
  return instance;
}

json openapi_document::response_schema(const std::string& path, int status) const {
  const std::vector<std::string> asked = split_path(path.substr(0, path.find('?')));
  const json* best = nullptr;
  int best_literals = -1;
  for (const auto& [template_path, item] : document_["paths"].items()) {
    std::vector<std::string> segments = split_path(template_path);
    if (segments.size() != asked.size()) {
      continue;
    }
    int literals = 0;
    bool matches = true;
    for (std::size_t i = 0; i < segments.size() && matches; ++i) {
      if (is_parameter(segments[i])) {
        continue;
      }
      matches = segments[i] == asked[i];
      ++literals;
    }
    if (matches && literals > best_literals) {
      best = &item;
      best_literals = literals;
    }
  }
  if (best == nullptr || !best->contains("get")) {
    return nullptr;
  }
  const json& responses = (*best)["get"]["responses"];
  const std::string code = std::to_string(status);
  if (!responses.contains(code)) {
    return nullptr;
  }
  json response = responses[code];
  if (response.contains("$ref")) {
    // #/components/responses/<name>
    std::string name = response["$ref"].get<std::string>().substr(std::string("#/components/responses/").size());
    response = document_["components"]["responses"][name];
  }
  const json* schema = find(response, {"content", "application/json", "schema"});
  return schema != nullptr ? *schema : json(nullptr);
}

bool openapi_document::documents_path_prefix(const std::string& prefix) const {
  const std::vector<std::string> wanted = split_path(prefix);
  for (const auto& [template_path, item] : document_["paths"].items()) {
    std::vector<std::string> segments = split_path(template_path);
    if (segments.size() >= wanted.size() && std::equal(wanted.begin(), wanted.end(), segments.begin())) {
      return true;
    }
  }
  return false;
}

std::set<std::string> openapi_document::resources_named() const {
  std::set<std::string> out;
  for (const auto& [name, schema] : document_["components"]["schemas"].items()) {
    for (const char* role : {"x-sextant-summary", "x-sextant-details", "x-sextant-list"}) {
      for (const json& resource : schema.value(role, json::array())) {
        out.insert(resource.get<std::string>());
      }
    }
  }
  return out;
}

std::map<std::string, std::string> openapi_document::resources_declared() const {
  std::map<std::string, std::string> out;
  const json declared = document_.value("x-sextant-resources", json::object());
  for (const auto& [section, resources] : declared.items()) {
    for (const auto& [resource, scope] : resources.items()) {
      out.emplace(section + "/" + resource, scope.get<std::string>());
    }
  }
  return out;
}

const json& openapi_document::target_of(const json& reference) const {
  const std::string ref = reference.get<std::string>();
  return document_["components"]["schemas"][ref.substr(ref.rfind('/') + 1)];
}

json openapi_document::resolve(const json& schema) const {
  if (!schema.is_object()) {
    return json::object();
  }
  json out = json::object();
  if (schema.contains("$ref")) {
    out = resolve(target_of(schema["$ref"]));
  }
  if (schema.contains("allOf")) {
    for (const json& part : schema["allOf"]) {
      out = merge(out, resolve(part));
    }
  }
  json own = schema;
  own.erase("$ref");
  own.erase("allOf");
  return merge(out, own);
}

json openapi_document::merge(const json& a, const json& b) const {
  json out = a;
  for (const auto& [key, value] : b.items()) {
    if (!out.contains(key)) {
      out[key] = value;
    } else if (key == "properties") {
      for (const auto& [name, property] : value.items()) {
        out[key][name] = out[key].contains(name) ? merge(resolve(out[key][name]), resolve(property)) : property;
      }
    } else if (key == "items" || (key == "additionalProperties" && value.is_object())) {
      out[key] = merge(resolve(out[key]), resolve(value));
    } else if (key == "required" || key == "enum") {
      for (const json& entry : value) {
        if (std::find(out[key].begin(), out[key].end(), entry) == out[key].end()) {
          out[key].push_back(entry);
        }
      }
    } else if (key == "nullable") {
      out[key] = out[key].get<bool>() || value.get<bool>();
    } else if (key == "type" && out[key] != value) {
      out["x-sextant-conflict"] =
          "documented as both " + out[key].get<std::string>() + " and " + value.get<std::string>();
    }
  }
  return out;
}

bool openapi_document::allows_null(const json& schema) const {
  if (!schema.is_object()) {
    return true;
  }
  if (schema.contains("$ref")) {
    return allows_null(target_of(schema["$ref"]));  // OpenAPI 3.0 ignores a $ref's siblings
  }
  for (const char* alternatives : {"oneOf", "anyOf"}) {
    if (schema.contains(alternatives) &&
        std::none_of(schema[alternatives].begin(), schema[alternatives].end(),
                     [this](const json& alternative) { return allows_null(alternative); })) {
      return false;
    }
  }
  if (schema.contains("allOf") && !std::all_of(schema["allOf"].begin(), schema["allOf"].end(),
                                               [this](const json& part) { return allows_null(part); })) {
    return false;
  }
  if (schema.contains("enum") &&
      std::find(schema["enum"].begin(), schema["enum"].end(), json(nullptr)) == schema["enum"].end()) {
    return false;
  }
  return !schema.contains("type") || schema.value("nullable", false);
}

std::vector<std::string> openapi_document::departures(const json& value, const json& schema) const {
  std::vector<std::string> out;
  check(value, schema, "$", out);
  return out;
}

void openapi_document::check(const json& value, const json& raw, const std::string& where,
                             std::vector<std::string>& out) const {
  if (value.is_null()) {
    if (!allows_null(raw)) {
      out.push_back(where + ": null, but not nullable");
    }
    return;
  }
  const json schema = resolve(raw);
  if (schema.contains("x-sextant-conflict")) {
    out.push_back(where + ": " + schema["x-sextant-conflict"].get<std::string>());
  }
  for (const char* alternatives : {"oneOf", "anyOf"}) {
    if (!schema.contains(alternatives)) {
      continue;
    }
    std::size_t matched = 0;
    for (const json& alternative : schema[alternatives]) {
      std::vector<std::string> departed;
      check(value, alternative, where, departed);
      matched += departed.empty() ? 1 : 0;
    }
    if (matched == 0) {
      out.push_back(where + ": matches none of its " + alternatives + " alternatives: " + value.dump().substr(0, 120));
    } else if (matched > 1 && std::string(alternatives) == "oneOf") {
      out.push_back(where + ": matches more than one of its oneOf alternatives: " + value.dump().substr(0, 120));
    }
    return;
  }
  if (schema.contains("type") && !has_type(value, schema["type"].get<std::string>())) {
    out.push_back(where + ": " + std::string(value.type_name()) + ", but documented as " +
                  schema["type"].get<std::string>());
    return;
  }
  if (schema.contains("enum") &&
      std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end()) {
    out.push_back(where + ": " + value.dump().substr(0, 120) + " is not in its enum");
  }
  if (value.is_array() && schema.contains("items")) {
    for (const json& item : value) {
      check(item, schema["items"], where + "[]", out);
    }
  }
  if (!value.is_object()) {
    return;
  }
  const bool has_properties = schema.contains("properties");
  const bool has_additional = schema.contains("additionalProperties");
  if (!has_properties && !has_additional) {
    return;  // a free-form object ("as written")
  }
  for (const auto& [key, member] : value.items()) {
    if (has_properties && schema["properties"].contains(key)) {
      check(member, schema["properties"][key], where + "." + key, out);
    } else if (has_additional && schema["additionalProperties"].is_object()) {
      check(member, schema["additionalProperties"], where + ".*", out);
    } else if (!(has_additional && schema["additionalProperties"] == true)) {
      out.push_back(where + "." + key + ": not documented");
    }
  }
  if (schema.contains("required")) {
    for (const json& key : schema["required"]) {
      if (!value.contains(key.get<std::string>())) {
        out.push_back(where + "." + key.get<std::string>() + ": required, but missing");
      }
    }
  }
}

}  // namespace sextant::testing
