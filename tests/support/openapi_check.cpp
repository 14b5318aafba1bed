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

bool names(const json& list, const std::string& resource) {
  return list.is_array() && std::find(list.begin(), list.end(), json(resource)) != list.end();
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

std::vector<json> openapi_document::declared(const std::string& role, const std::string& resource) const {
  std::vector<json> out;
  for (const auto& [name, schema] : document_["components"]["schemas"].items()) {
    if (names(schema.value("x-sextant-" + role, json::array()), resource)) {
      out.push_back(resolve(schema));
    }
  }
  return out;
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

json openapi_document::summary_schema(const std::string& resource) const {
  json schema = resolve(json{{"$ref", "#/components/schemas/Summary"}});
  for (const json& extra : declared("summary", resource)) {
    schema = merge(schema, extra);
  }
  return schema;
}

json openapi_document::details_schema(const std::string& resource) const {
  json schema = merge(resolve(json{{"$ref", "#/components/schemas/Details"}}), summary_schema(resource));
  // Details blocks join each other (DRA adds reasons to core's `waiting`), but a block replaces
  // a summary field of its name (a Cluster Queue's `cohort` is a name in lists, a link in details).
  json blocks = json::object();
  for (const json& extra : declared("details", resource)) {
    blocks = merge(blocks, extra);
  }
  const json named = blocks.value("properties", json::object());
  for (const auto& [name, block] : named.items()) {
    schema["properties"].erase(name);
  }
  return merge(schema, blocks);
}

json openapi_document::list_schema(const std::string& resource, bool computed) const {
  if (!computed) {
    json schema = resolve(json{{"$ref", "#/components/schemas/List"}});
    schema["properties"]["items"]["items"] = summary_schema(resource);
    return schema;
  }
  json schema = nullptr;
  for (const json& declared_list : declared("list", resource)) {
    schema = schema.is_null() ? declared_list : merge(schema, declared_list);
  }
  return schema;
}

json openapi_document::resolve(const json& schema) const {
  if (!schema.is_object()) {
    return json::object();
  }
  json out = json::object();
  if (schema.contains("$ref")) {
    const std::string ref = schema["$ref"].get<std::string>();
    const std::string name = ref.substr(ref.rfind('/') + 1);
    out = resolve(document_["components"]["schemas"][name]);
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
    }
  }
  return out;
}

std::vector<std::string> openapi_document::departures(const json& value, const json& schema) const {
  std::vector<std::string> out;
  check(value, schema, "$", out);
  return out;
}

void openapi_document::check(const json& value, const json& raw, const std::string& where,
                             std::vector<std::string>& out) const {
  const json schema = resolve(raw);
  if (value.is_null()) {
    const bool allowed = schema.value("nullable", false) || !schema.contains("type") ||
                         (schema.contains("enum") && std::find(schema["enum"].begin(), schema["enum"].end(),
                                                               json(nullptr)) != schema["enum"].end());
    if (!allowed) {
      out.push_back(where + ": null, but not nullable");
    }
    return;
  }
  if (schema.contains("oneOf")) {
    for (const json& alternative : schema["oneOf"]) {
      std::vector<std::string> departed;
      check(value, alternative, where, departed);
      if (departed.empty()) {
        return;
      }
    }
    out.push_back(where + ": matches none of its oneOf alternatives: " + value.dump().substr(0, 120));
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
