#include "store/packed_vocabulary.hpp"

#include <array>
#include <cstdint>

namespace sextant {
namespace {

// Field names of the kinds the sections cache, then values those fields repeat. Only the
// Kubernetes and operator APIs' own words: nothing of one cluster's naming.
constexpr auto words = std::to_array<std::string_view>(
    {// Every object
     "apiVersion", "kind", "metadata", "name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
     "labels", "annotations", "ownerReferences", "controller", "blockOwnerDeletion", "spec", "status",
     // Conditions
     "conditions", "type", "reason", "message", "lastTransitionTime", "lastProbeTime", "lastHeartbeatTime",
     "lastUpdateTime", "observedGeneration",
     // Pods and containers
     "containers", "initContainers", "resources", "requests", "limits", "claims", "cpu", "memory", "nvidia.com/gpu",
     "nodeName", "nodeSelector", "schedulingGates", "priorityClassName", "priority", "tolerations", "key", "operator",
     "effect", "value", "phase", "containerStatuses", "initContainerStatuses", "ready", "started", "restartCount",
     "state", "running", "waiting", "terminated", "startedAt", "finishedAt", "exitCode", "resourceClaims",
     "resourceClaimStatuses", "resourceClaimName",
     // Nodes
     "taints", "capacity", "allocatable", "nodeInfo", "unschedulable", "pods",
     // Jobs and the workloads of Kueue, JobSet, KubeRay
     "replicas", "template", "count", "podSets", "queueName", "clusterQueue", "admission", "podSetAssignments",
     "flavors", "resourceUsage", "active", "succeeded", "failed", "completions", "parallelism", "backoffLimit",
     "suspend", "startTime", "completionTime",
     // Dynamic resource allocation
     "devices", "driver", "pool", "device", "request", "results", "allocation", "attributes", "deviceClassName",
     "allocationMode", "exactly", "reservedFor",
     // Well-known labels
     "kueue.x-k8s.io/queue-name", "batch.kubernetes.io/job-name", "jobset.sigs.k8s.io/jobset-name",
     "kubernetes.io/hostname", "topology.kubernetes.io/zone", "nvidia.com/gpu.present", "nvidia.com/gpu.product",
     "nvidia.com/gpu.count",
     // Values
     "True", "False", "Unknown", "v1", "batch/v1", "Pod", "Job", "Pending", "Running", "Succeeded", "Failed", "Ready",
     "PodScheduled", "ContainersReady", "Initialized", "PodReadyToStartContainers", "NoSchedule", "NoExecute", "Exists",
     "Equal"});
static_assert(words.size() <= packed_vocabulary_size, "the packed format numbers at most 127 words");

constexpr bool all_distinct() {
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (std::size_t j = i + 1; j < words.size(); ++j) {
      if (words[i] == words[j]) {
        return false;
      }
    }
  }
  return true;
}
static_assert(all_distinct(), "a word listed twice would never be found by its second number");

// A few bytes and the length, not the whole text: a word is told apart by the comparison that
// follows, and most texts looked up (names, timestamps, messages) land on an empty slot at once.
// Hashing every byte took a sixth of the ingest's CPU (perf on bench/ingest_bench).
constexpr std::uint32_t hash(std::string_view text) {
  const std::size_t n = text.size();
  auto byte = [&](std::size_t at) { return static_cast<std::uint32_t>(static_cast<std::uint8_t>(text[at])); };
  return static_cast<std::uint32_t>(n) * 97U + byte(0) * 31U + byte(n - 1) * 7U + byte(n / 2) * 3U + byte(1);
}

// An open-addressed table from a word's hash to its number plus one (0: empty), built at compile
// time: a lookup is one hash and, mostly, one comparison, on the ingest path of every key.
constexpr std::size_t slot_count = 512;
constexpr std::array<std::uint8_t, slot_count> build_slots() {
  std::array<std::uint8_t, slot_count> slots{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::size_t slot = hash(words[i]) % slot_count;
    while (slots[slot] != 0) {
      slot = (slot + 1) % slot_count;
    }
    slots[slot] = static_cast<std::uint8_t>(i + 1);
  }
  return slots;
}
constexpr auto slots = build_slots();

constexpr bool lengths_within_bounds() {
  std::size_t shortest = words[0].size();
  std::size_t longest = 0;
  for (std::string_view word : words) {
    shortest = word.size() < shortest ? word.size() : shortest;
    longest = word.size() > longest ? word.size() : longest;
  }
  return shortest == vocabulary_shortest && longest == vocabulary_longest;
}
static_assert(lengths_within_bounds(), "vocabulary_shortest and vocabulary_longest must be the words' lengths");

}  // namespace

std::optional<std::size_t> vocabulary_lookup(std::string_view text) {
  for (std::size_t slot = hash(text) % slot_count; slots[slot] != 0; slot = (slot + 1) % slot_count) {
    if (words[slots[slot] - 1] == text) {
      return slots[slot] - 1;
    }
  }
  return std::nullopt;
}

std::string_view vocabulary_word(std::size_t index) {
  return index < words.size() ? words[index] : std::string_view{};
}

std::size_t vocabulary_words() {
  return words.size();
}

}  // namespace sextant
