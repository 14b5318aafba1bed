// The `gpu-operator` problem category: a Cluster Policy or NVIDIA Driver not ready for 10
// minutes (since the Ready condition last changed; from the first sighting for an operator that
// writes no conditions); an enabled component whose pods are not ready or not updated for 10
// minutes (since its pods' Ready conditions say they stopped being ready; a DaemonSet carries no
// time, so a component only not updated counts from when the daemon first saw it so); a node
// whose MIG configuration state is failed for 2 minutes (first seen).
#include <chrono>

#include "sections/common/objects.hpp"
#include "sections/common/words.hpp"
#include "sections/core/core_section.hpp"
#include "sections/gpu_operator/gpu_operator_reading.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"

namespace sextant::gpu_operator {
namespace {

using std::chrono::minutes;

constexpr minutes not_ready_threshold{10};
constexpr minutes component_not_rolled_out_threshold{10};
constexpr minutes mig_failed_threshold{2};

std::vector<finding> policy_findings(const cached_object& policy, const view_context& context) {
  if (being_deleted(policy.body())) {
    return {};
  }
  policy_reading reading = read_policy(policy, context);
  if (reading.duplicate) {
    return {};
  }
  std::vector<finding> out;
  if (!reading.ready) {
    out.push_back(finding{"not-ready", reading.since, not_ready_threshold,
                          problem_message("Cluster Policy not ready", reading.state)});
  }
  for (const component& c : reading.components) {
    if (!c.not_rolled_out) {
      continue;
    }
    // The earliest its pods tell; else the engine counts from the first sighting.
    std::optional<time_point> since;
    for (const found_daemonset& f : c.found) {
      if (f.not_ready_since && (!since || *f.not_ready_since < *since)) {
        since = f.not_ready_since;
      }
    }
    out.push_back(finding{"component-not-rolled-out/" + c.daemonset, since, component_not_rolled_out_threshold,
                          "The " + c.name + " is not rolled out: " + c.words + "."});
  }
  return out;
}

std::vector<finding> driver_findings(const cached_object& driver, const view_context& context) {
  if (being_deleted(driver.body())) {
    return {};
  }
  driver_reading reading = read_driver(driver, context);
  if (reading.disabled) {
    return {};
  }
  std::vector<finding> out;
  if (!reading.ready) {
    out.push_back(finding{"not-ready", reading.since, not_ready_threshold,
                          problem_message("NVIDIA Driver not ready", reading.state)});
  }
  for (const found_daemonset& f : reading.daemonsets) {
    if (!f.status.rolled_out) {
      out.push_back(finding{
          "driver-not-rolled-out/" + std::string(f.object->name), f.not_ready_since, component_not_rolled_out_threshold,
          "The driver DaemonSet " + std::string(f.object->name) + " is not rolled out: " + f.status.words + "."});
    }
  }
  return out;
}

std::vector<finding> node_findings(const cached_object& node, const view_context&) {
  if (string_or(node.body(), {"metadata", "labels", std::string(mig_config_state_label)}) != "failed") {
    return {};
  }
  std::string config = string_or(node.body(), {"metadata", "labels", "nvidia.com/mig.config"});
  return {finding{"mig-config-failed", std::nullopt, mig_failed_threshold,
                  "The MIG manager failed to apply the MIG configuration" + (config.empty() ? "" : " " + config) +
                      " (nvidia.com/mig.config.state is failed)."}};
}

}  // namespace

std::vector<problem_rule> problem_rules() {
  std::string category(problems_category);
  return {problem_rule{category, cluster_policy_kind, policy_findings, {daemonset_kind}},
          problem_rule{category, nvidia_driver_kind, driver_findings, {daemonset_kind}},
          problem_rule{category, core::node_kind, node_findings}};
}

}  // namespace sextant::gpu_operator
