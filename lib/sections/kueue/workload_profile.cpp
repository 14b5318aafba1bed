// How a Workload is cached: what the views read, not its jobs' pod templates.
//
// A Workload copies the whole pod template of each of its job's pod sets (about 10 KB each,
// half of it managedFields). The views need its conditions, admission, admission checks,
// eviction counts, and per pod set a name, a count and summed requests; the rest is never
// built (the mask) or is summarised and dropped (the transform).
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/pod_sets.hpp"

namespace sextant::kueue {
namespace {

void keep_members(json& object, std::initializer_list<const char*> members) {
  if (!object.is_object()) {
    return;
  }
  json kept = json::object();
  for (const char* member : members) {
    if (auto it = object.find(member); it != object.end()) {
      kept[member] = std::move(*it);
    }
  }
  object = std::move(kept);
}

void summarise(json& workload) {
  if (auto metadata = workload.find("metadata"); metadata != workload.end()) {
    // Annotations, finalizers and the like are read by no view.
    keep_members(*metadata, {"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
                             "labels", "ownerReferences"});
    if (auto owners = metadata->find("ownerReferences"); owners != metadata->end() && owners->is_array()) {
      for (json& owner : *owners) {
        keep_members(owner, {"apiVersion", "kind", "name", "uid", "controller"});
      }
    }
  }
  json* pod_sets = nullptr;
  if (auto spec = workload.find("spec"); spec != workload.end() && spec->is_object()) {
    if (auto found = spec->find("podSets"); found != spec->end() && found->is_array()) {
      pod_sets = &*found;
    }
  }
  if (pod_sets == nullptr) {
    return;
  }
  for (json& pod_set : *pod_sets) {
    if (!pod_set.is_object()) {
      continue;
    }
    json requests = pod_set_requests(pod_set);
    pod_set.erase("template");
    pod_set[requests_per_pod_member] = requests.is_object() ? requests : json::object();
  }
}

}  // namespace

ingest_profile workload_profile() {
  ingest_profile profile = ingest_profile::keeping({
      "spec.queueName",
      "spec.active",
      "spec.priority",
      "spec.priorityClassName",
      "spec.priorityClassSource",
      "spec.priorityClassRef",
      "spec.maximumExecutionTimeSeconds",
      "spec.podSets.name",
      "spec.podSets.count",
      "spec.podSets.minCount",
      "spec.podSets.template.spec.containers.resources.requests",
      "spec.podSets.template.spec.containers.resources.limits",
      "spec.podSets.template.spec.initContainers.resources.requests",
      "spec.podSets.template.spec.initContainers.resources.limits",
      "spec.podSets.template.spec.overhead",
      "status.conditions.type",
      "status.conditions.status",
      "status.conditions.reason",
      "status.conditions.message",
      "status.conditions.lastTransitionTime",
      "status.admission.clusterQueue",
      "status.admission.podSetAssignments.name",
      "status.admission.podSetAssignments.flavors",
      "status.admission.podSetAssignments.resourceUsage",
      "status.admission.podSetAssignments.count",
      "status.admissionChecks.name",
      "status.admissionChecks.state",
      "status.admissionChecks.message",
      "status.admissionChecks.lastTransitionTime",
      "status.admissionChecks.retryCount",
      "status.requeueState",
      "status.schedulingStats.evictions",
      "status.resourceRequests",
      "status.accumulatedPastExecutionTimeSeconds",
      "status.accumulatedPastExexcutionTimeSeconds",
  });
  profile.transform = summarise;
  profile.indexed_labels = {std::string(job_uid_label)};
  return profile;
}

}  // namespace sextant::kueue
