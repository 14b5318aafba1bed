#include "kueue_test_support.hpp"

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "sections/kueue/kueue_section.hpp"
#include "snapshot/yaml_to_json.hpp"

namespace sextant::kueue::testing {

std::vector<json> upstream_documents(const std::string& relative) {
  std::vector<json> out;
  for (const YAML::Node& node : YAML::LoadAllFromFile(sextant::testing::upstream(relative).string())) {
    if (node && !node.IsNull()) {
      out.push_back(yaml_to_json(node));
    }
  }
  REQUIRE(!out.empty());
  return out;
}

json excerpt_object(const std::string& relative, const std::string& api_version, const std::string& kind,
                    const std::string& namespace_, const std::string& name) {
  json excerpt = upstream_documents(relative).front();
  json status = excerpt.contains("status") ? excerpt["status"] : json::object();
  if (status.is_array()) {
    status = json{{"conditions", status}};
  }
  json metadata = {{"name", name}, {"uid", "uid-" + name}, {"creationTimestamp", "2024-01-01T00:00:00Z"}};
  if (!namespace_.empty()) {
    metadata["namespace"] = namespace_;
  }
  return json{{"apiVersion", api_version}, {"kind", kind}, {"metadata", metadata}, {"status", status}};
}

void load(sextant::testing::fixture_cluster& cluster, const std::vector<json>& objects) {
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", objects}};
  cluster.load_json(list.dump());
}

void mark_complete(sextant::testing::fixture_cluster& cluster) {
  for (const kind_key& type : {workload_kind, local_queue_kind, cluster_queue_kind, cohort_kind, resource_flavor_kind,
                               admission_check_kind, priority_class_kind}) {
    cluster.store.set_completeness(type, {list_completeness::state::complete, ""});
  }
}

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, const std::string& at) {
  return json{{"type", type}, {"status", status}, {"reason", reason}, {"message", message}, {"lastTransitionTime", at}};
}

json workload(const std::string& api_version, const std::string& namespace_, const std::string& name,
              const std::string& queue, json conditions, json status_extra, json spec_extra) {
  json spec = {{"queueName", queue},
               {"podSets",
                {{{"name", "main"},
                  {"count", 1},
                  {"template",
                   {{"spec", {{"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}}}}}}}}}}};
  spec.update(spec_extra);
  json status = {{"conditions", std::move(conditions)}};
  status.update(status_extra);
  return json{{"apiVersion", api_version},
              {"kind", "Workload"},
              {"metadata",
               {{"name", name},
                {"namespace", namespace_},
                {"uid", "uid-" + name},
                {"creationTimestamp", "2026-11-29T09:00:00Z"}}},
              {"spec", std::move(spec)},
              {"status", std::move(status)}};
}

}  // namespace sextant::kueue::testing
