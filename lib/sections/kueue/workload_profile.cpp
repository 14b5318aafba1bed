// How a Workload is cached: what the views read, not its jobs' pod templates.
//
// A Workload copies the whole pod template of each of its job's pod sets (about 10 KB each,
// half of it managedFields). The views need its conditions, admission, admission checks,
// eviction counts, and per pod set a name, a count and summed requests; the rest is never
// built (the mask) or is summarised and dropped (the transform).
#include <string_view>

#include "ingest/packed_rewrite.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "sections/kueue/pod_sets.hpp"

namespace sextant::kueue {
namespace {

void write_metadata(const packed_value& metadata, packed_writer& out) {
  // Finalizers and the like are read by no view, nor any annotation but a group's index (the Queue
  // section orders a LeaderWorkerSet's Workloads by it).
  rewrite_object(metadata, out, [&out](std::string_view key, const packed_value& value) {
    if (key == "annotations" && value.is_object() && value.member(group_index_annotation) != nullptr) {
      out.key(key);
      rewrite_object(value, out, [&out](std::string_view annotation, const packed_value& text) {
        if (annotation == group_index_annotation) {
          out.key(annotation);
          out.write(text);
        }
      });
    } else if (key == "ownerReferences") {
      out.key(key);
      rewrite_array(value, out, [&out](const packed_value& owner) {
        rewrite_object(owner, out, [&out](std::string_view owner_key, const packed_value& owner_value) {
          if (one_of(owner_key, {"apiVersion", "kind", "name", "uid", "controller"})) {
            out.key(owner_key);
            out.write(owner_value);
          }
        });
      });
    } else if (one_of(key, {"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
                            "labels"})) {
      out.key(key);
      out.write(value);
    }
  });
}

// A pod set without its template, and with the per-pod requests summed from it.
void write_pod_set(const packed_value& pod_set, packed_writer& out) {
  rewrite_object(
      pod_set, out,
      [&out](std::string_view key, const packed_value& value) {
        if (key != "template" && key != requests_per_pod_member) {
          out.key(key);
          out.write(value);
        }
      },
      [&] {
        json requests = pod_set_requests(pod_set);
        out.key(requests_per_pod_member);
        out.write(requests.is_object() ? requests : json::object());
      });
}

void summarise(const packed_value& workload, packed_writer& out) {
  rewrite_object(workload, out, [&out](std::string_view key, const packed_value& value) {
    out.key(key);
    if (key == "metadata") {
      write_metadata(value, out);
    } else if (key == "spec") {
      rewrite_object(value, out, [&out](std::string_view spec_key, const packed_value& spec_value) {
        out.key(spec_key);
        if (spec_key == "podSets") {
          rewrite_array(spec_value, out, [&out](const packed_value& pod_set) { write_pod_set(pod_set, out); });
        } else {
          out.write(spec_value);
        }
      });
    } else {
      out.write(value);
    }
  });
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
