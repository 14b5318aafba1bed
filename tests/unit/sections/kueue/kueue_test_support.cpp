#include "kueue_test_support.hpp"

namespace sextant::kueue::testing {

const char* const healthy_queues = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cluster-queue}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-11-29T09:00:00Z"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: user-queue, namespace: default}
spec: {clusterQueue: cluster-queue}
status:
  conditions: [{type: Active, status: "True", reason: Ready, message: Can submit new workloads to localQueue, lastTransitionTime: "2026-11-29T09:00:00Z"}]
)";

json excerpt_object(const std::string& relative, const std::string& api_version, const std::string& kind,
                    const std::string& namespace_, const std::string& name) {
  json excerpt = sextant::testing::upstream_documents(relative).front();
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
  // `{condition(...)}` is a one-element array with GCC but the condition itself with clang
  // (nlohmann/json's single-element brace initialisation): either way, a list of conditions.
  if (conditions.is_object()) {
    conditions = json::array({std::move(conditions)});
  }
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
