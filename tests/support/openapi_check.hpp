#pragma once
// Checks answers against api/openapi.yaml, the contract front-ends read: every member an answer
// writes must be declared, of the declared type (or null where nullable), within its enum, and
// every required member present.
//
// Each resource's answers are documented under its own paths (/api/v1/kueue/workloads and the
// details path), which scripts/merge-openapi.py writes from x-sextant-resources and the schemas
// that name the resource (x-sextant-summary, -details, -list); answers are checked against the
// schema of the path they were asked on.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "util/json.hpp"

namespace sextant::testing {

class openapi_document {
 public:
  explicit openapi_document(json document);
  // api/openapi.yaml of this source tree.
  static const openapi_document& merged();

  // The schema an answer on `path` with `status` has, from the path template that matches it
  // with the most literal segments; null when the document has none.
  json response_schema(const std::string& path, int status) const;
  // Whether some path template starts with these literal segments ("/api/v1/kueue/queue").
  bool documents_path_prefix(const std::string& prefix) const;

  // Every "section/resource" an x-sextant-summary, -details or -list key names, so a test can
  // check they exist.
  std::set<std::string> resources_named() const;
  // x-sextant-resources: "section/resource" -> namespaced, cluster or computed.
  std::map<std::string, std::string> resources_declared() const;

  // How `value` departs from `schema`, one line each ("$.claims[].state: not documented").
  // Array indexes are written [] so one missing declaration is one line.
  std::vector<std::string> departures(const json& value, const json& schema) const;

  // $ref followed and allOf folded into one schema.
  json resolve(const json& schema) const;
  // Two resolved schemas as one: properties, items and required joined. Two types for one
  // member are kept as a departure ("x-sextant-conflict"), never one silently dropped.
  json merge(const json& a, const json& b) const;
  // Whether null is a valid value, as OpenAPI 3.0.3 reads `nullable`: only beside a `type`, and
  // every part of an allOf (a $ref's target included) must allow it.
  bool allows_null(const json& schema) const;

 private:
  const json& target_of(const json& reference) const;
  void check(const json& value, const json& schema, const std::string& where, std::vector<std::string>& out) const;

  json document_;
};

}  // namespace sextant::testing
