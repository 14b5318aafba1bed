// The scheduler's DRA messages, in every form the DynamicResources plugin writes them
// (semantics notes §1.7–1.8): PreFilter texts without counts, Filter texts in the histogram,
// PreBind errors, PostFilter notes.
#include <catch2/catch.hpp>

#include "sections/dra/scheduler_reasons.hpp"

using namespace sextant;
using sextant::dra::recognise_scheduler_message;

namespace {

struct expected_reason {
  const char* message;
  const char* id;
  const char* claim;
  const char* request;
  const char* device_class;
};

}  // namespace

TEST_CASE("each DRA message form is recognised and named", "[dra][scheduler]") {
  const expected_reason cases[] = {
      {"0/3 nodes are available: pod \"ml/trainer-0\": ResourceClaim not created yet.", "claim-not-created", "", "",
       ""},
      {"pod \"ml/trainer-0\", spec.resourceClaim \"gpu\": none of the supported fields are set", "claim-source-missing",
       "", "", ""},
      {"0/3 nodes are available: resourceclaim.resource.k8s.io \"shared-gpu\" not found.", "claim-not-found",
       "shared-gpu", "", ""},
      {"0/3 nodes are available: resourceclaim \"shared-gpu\" is being deleted.", "claim-deleting", "shared-gpu", "",
       ""},
      {"ResourceClaim ml/trainer-0-gpu-abcde was not created for Pod ml/trainer-0 (Pod is not owner)",
       "claim-not-owned", "trainer-0-gpu-abcde", "", ""},
      {"ResourceClaim ml/group-gpu was not created for Pod ml/trainer-0 (neither Pod nor PodGroup pg-1 is the owner)",
       "claim-not-owned", "group-gpu", "", ""},
      {"ResourceClaim other/gpu is not in the same namespace as Pod ml/trainer-0", "claim-other-namespace", "gpu", "",
       ""},
      {"0/3 nodes are available: resourceclaim in use.", "claim-in-use", "", "", ""},
      {"0/3 nodes are available: resource claim ml/shared-gpu is in the process of being allocated.",
       "claim-being-allocated", "shared-gpu", "", ""},
      {"0/3 nodes are available: request gpu: device class gpu.example.com does not exist.", "device-class-missing", "",
       "gpu", "gpu.example.com"},
      {"0/3 nodes are available: request gpu/older-gpu: device class old.example.com does not exist.",
       "device-class-missing", "", "gpu/older-gpu", "old.example.com"},
      {"resource claim ml/gpu, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled",
       "prioritized-list-disabled", "gpu", "gpu", ""},
      {"resource claim ml/gpu, request gpu: unknown request type", "unknown-request-type", "gpu", "gpu", ""},
      {"0/2 nodes are available: 2 resourceclaim not available on the node. still not schedulable",
       "claim-not-available-on-node", "", "", ""},
      {"0/2 nodes are available: 2 invalid resource pools were encountered.", "invalid-pools", "", "", ""},
      {"node gpu-node-1: timed out trying to allocate devices", "allocation-timeout", "", "", ""},
      {"running PreBind plugin \"DynamicResources\": device binding failed: claim=pod0-gpu-x1, reason=FabricDown, "
       "message=\"switch port 3 is down\"",
       "binding-failed", "pod0-gpu-x1", "", ""},
      {"running PreBind plugin \"DynamicResources\": device binding timeout: claim=pod0-gpu-x1", "binding-timeout",
       "pod0-gpu-x1", "", ""},
      {"claim ml/gpu, request gpu: could not retrieve device class gpu.example.com: forbidden",
       "device-class-unreadable", "", "", "gpu.example.com"},
      {"class gpu.example.com: selector #0: CEL runtime error: no such key: model", "cel-runtime-error", "", "",
       "gpu.example.com"},
      {"claim ml/all-gpus, request gpus: asks for all devices, but resource pool gpu-node-1 is currently being updated",
       "pool-updating", "", "gpus", ""},
      {"0/1 nodes are available: 1 cannot allocate all claims. deallocation of ResourceClaim completed",
       "cannot-allocate", "", "", ""},
  };
  for (const expected_reason& expected : cases) {
    INFO(expected.message);
    auto reading = recognise_scheduler_message(expected.message);
    REQUIRE_FALSE(reading.reasons.empty());
    const dra::dra_reason& reason = reading.reasons.front();
    CHECK(reason.id == expected.id);
    CHECK(reason.claim == expected.claim);
    CHECK(reason.request == expected.request);
    CHECK(reason.device_class == expected.device_class);
    CHECK(reason.source == "scheduler");
    CHECK_FALSE(reason.text.empty());
    CHECK(std::string(expected.message).find(reason.fragment) != std::string::npos);
  }
}

TEST_CASE("the histogram's DRA part is named with its node count, the rest left to the message", "[dra][scheduler]") {
  // The real example from the notes: one DRA reason, one affinity reason, and the preemption tail.
  auto reading = recognise_scheduler_message(
      "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's node affinity/selector. "
      "still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  CHECK(reading.total_nodes == 2);
  REQUIRE(reading.reasons.size() == 1);
  CHECK(reading.reasons[0].id == "cannot-allocate");
  CHECK(reading.reasons[0].nodes == 1);
  CHECK(reading.reasons[0].fragment == "1 cannot allocate all claims");
  CHECK(reading.reasons[0].text == "The scheduler cannot allocate all of the pod's claims on 1 of 2 nodes.");

  auto two = recognise_scheduler_message(
      "0/5 nodes are available: 2 cannot allocate all claims, 2 resourceclaim not available on the node, 1 "
      "Insufficient cpu. still not schedulable, deallocation of ResourceClaim completed");
  REQUIRE(two.reasons.size() == 3);
  CHECK(two.reasons[0].id == "cannot-allocate");
  CHECK(two.reasons[0].nodes == 2);
  CHECK(two.reasons[1].id == "claim-not-available-on-node");
  CHECK(two.reasons[1].nodes == 2);
  CHECK(two.reasons[2].id == "claim-deallocated");
}

TEST_CASE("messages without a DRA part name no DRA reason", "[dra][scheduler]") {
  CHECK(recognise_scheduler_message("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").reasons.empty());
  CHECK(recognise_scheduler_message("0/2 nodes are available: 2 node(s) had untolerated taint "
                                    "{node-role.kubernetes.io/control-plane: }. preemption: 0/2 nodes are available: "
                                    "2 Preemption is not helpful for scheduling.")
            .reasons.empty());
  CHECK(recognise_scheduler_message("").reasons.empty());
  // A count too large to be read is left out, not a crash.
  auto huge = recognise_scheduler_message(
      "0/99999999999999999999999 nodes are available: "
      "99999999999999999999999 cannot allocate all claims.");
  REQUIRE(huge.reasons.size() == 1);
  CHECK_FALSE(huge.reasons[0].nodes.has_value());
}
