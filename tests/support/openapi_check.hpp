#pragma once
// Checks answers against api/openapi.yaml, the contract front-ends read: every member an answer
// writes must be declared, of the declared type (or null where nullable), within its enum, and
// every required member present.
//
// Which schemas document which resource is said in the document itself, beside each schema, so
// that a new section documents its views in its own fragment and this check finds them:
//   x-sextant-summary: [kueue/workloads]   fields added to that resource's summaries (and details)
//   x-sextant-details: [core/pods]         fields added to its details (own blocks or extensions)
//   x-sextant-list:    [dra/devices]       the whole list answer of a computed page
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

  // The schema of a resource's summaries, details, or (computed pages) list answer.
  json summary_schema(const std::string& resource) const;
  json details_schema(const std::string& resource) const;
  json list_schema(const std::string& resource, bool computed) const;
  // Every "section/resource" an x-sextant-* key names, so a test can check they exist.
  std::set<std::string> resources_named() const;
  // The schemas that declare `role` ("summary", "details", "list") for `resource`.
  std::vector<json> declared(const std::string& role, const std::string& resource) const;

  // How `value` departs from `schema`, one line each ("$.claims[].state: not documented").
  // Array indexes are written [] so one missing declaration is one line.
  std::vector<std::string> departures(const json& value, const json& schema) const;

  // $ref followed and allOf folded into one schema.
  json resolve(const json& schema) const;
  // Two resolved schemas as one: properties, items and required joined.
  json merge(const json& a, const json& b) const;

 private:
  void check(const json& value, const json& schema, const std::string& where, std::vector<std::string>& out) const;

  json document_;
};

}  // namespace sextant::testing
