// How a Workload is cached: what the views read, not its jobs' pod templates.
//
// A Workload copies the whole pod template of each of its job's pod sets (about 10 KB each,
// half of it managedFields). The views need its conditions, admission, admission checks,
// eviction counts, and per pod set a name, a count and summed requests; the rest is never
// built (the mask) or is summarised and dropped (the transform).
#include <algorithm>
#include <array>

#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/pod_sets.hpp"

namespace sextant::kueue {
namespace {

// Copies the named members of an object, in the object's own order; anything else as it is.
void write_members(const packed_value& object, std::initializer_list<std::string_view> members, packed_writer& out) {
  if (!object.is_object()) {
    out.write(object);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : object.items()) {
    if (std::find(members.begin(), members.end(), key) != members.end()) {
      out.key(key);
      out.write(value);
    }
  }
  out.end_object();
}

void write_metadata(const packed_value& metadata, packed_writer& out) {
  // Annotations, finalizers and the like are read by no view.
  static constexpr std::array<std::string_view, 7> kept = {
      "name", "namespace", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "labels"};
  if (!metadata.is_object()) {
    out.write(metadata);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : metadata.items()) {
    if (key == "ownerReferences" && value.is_array()) {
      out.key(key);
      out.begin_array();
      for (const packed_value& owner : value) {
        write_members(owner, {"apiVersion", "kind", "name", "uid", "controller"}, out);
      }
      out.end_array();
    } else if (std::find(kept.begin(), kept.end(), key) != kept.end()) {
      out.key(key);
      out.write(value);
    }
  }
  out.end_object();
}

// A pod set without its template, and with the per-pod requests summed from it.
void write_pod_set(const packed_value& pod_set, packed_writer& out) {
  if (!pod_set.is_object()) {
    out.write(pod_set);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : pod_set.items()) {
    if (key != "template" && key != requests_per_pod_member) {
      out.key(key);
      out.write(value);
    }
  }
  json requests = pod_set_requests(pod_set);
  out.key(requests_per_pod_member);
  out.write(requests.is_object() ? requests : json::object());
  out.end_object();
}

void write_spec(const packed_value& spec, packed_writer& out) {
  if (!spec.is_object()) {
    out.write(spec);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : spec.items()) {
    out.key(key);
    if (key == "podSets" && value.is_array()) {
      out.begin_array();
      for (const packed_value& pod_set : value) {
        write_pod_set(pod_set, out);
      }
      out.end_array();
    } else {
      out.write(value);
    }
  }
  out.end_object();
}

void summarise(const packed_value& workload, packed_writer& out) {
  if (!workload.is_object()) {
    out.write(workload);
    return;
  }
  out.begin_object();
  for (const auto& [key, value] : workload.items()) {
    out.key(key);
    if (key == "metadata") {
      write_metadata(value, out);
    } else if (key == "spec") {
      write_spec(value, out);
    } else {
      out.write(value);
    }
  }
  out.end_object();
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
