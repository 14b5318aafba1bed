#include "sections/core/core_section.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

// A Pending pod with the PodScheduled=False condition the scheduler wrote.
std::string pending_pod(const std::string& name, const std::string& reason, const std::string& message) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, uid: " + name +
         "}\nspec: {containers: [{name: main, image: x}]}\nstatus:\n  phase: "
         "Pending\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: " +
         reason + "\n    message: '" + message + "'\n    lastTransitionTime: \"2026-11-29T11:00:00Z\"\n";
}

}  // namespace

TEST_CASE("a Pending pod the scheduler could not place shows the scheduler's message", "[core][pods]") {
  fixture_cluster cluster;
  cluster.load_yaml(
      pending_pod("trainer-0", "Unschedulable", "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."));
  auto pod = cluster.get("", "Pod", "ml", "trainer-0");
  REQUIRE(pod);
  object_state state = core::pod_state(*pod, cluster.context());
  CHECK(state.label == "Pending");
  CHECK(state.reason == "Unschedulable");
  CHECK(state.message == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
}

TEST_CASE("job states come from the job's conditions", "[core][jobs]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: done, namespace: ml}
status: {conditions: [{type: Complete, status: "True"}], succeeded: 1}
---
apiVersion: batch/v1
kind: Job
metadata: {name: broke, namespace: ml}
status: {conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded, message: "Job has reached the specified backoff limit"}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: paused, namespace: ml}
spec: {suspend: true}
status: {conditions: [{type: Suspended, status: "True", reason: JobSuspended}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: busy, namespace: ml}
status: {active: 2}
---
apiVersion: batch/v1
kind: Job
metadata: {name: fresh, namespace: ml}
status: {}
)");
  auto context = cluster.context();
  auto label = [&](const char* name) {
    return core::job_state(*cluster.get("batch", "Job", "ml", name), context).label;
  };
  CHECK(label("done") == "Complete");
  CHECK(label("broke") == "Failed");
  CHECK(core::job_state(*cluster.get("batch", "Job", "ml", "broke"), context).reason == "BackoffLimitExceeded");
  CHECK(label("paused") == "Suspended");
  CHECK(label("busy") == "Running");
  CHECK(label("fresh") == "Pending");
}

TEST_CASE("node state reads the Ready condition", "[core][nodes]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Node
metadata: {name: gpu-1}
spec: {unschedulable: true}
status: {conditions: [{type: Ready, status: "False", reason: KubeletNotReady, message: "PLEG is not healthy"}]}
---
apiVersion: v1
kind: Node
metadata: {name: gpu-2}
status: {}
)");
  auto context = cluster.context();
  auto first = core::node_state(*cluster.get("", "Node", "", "gpu-1"), context);
  CHECK(first.label == "Not ready");
  CHECK_THAT(first.message, Catch::Contains("Cordoned"));
  CHECK(core::node_state(*cluster.get("", "Node", "", "gpu-2"), context).label == "Unknown");
}

TEST_CASE("a Pending pod shows the scheduler's words whatever the condition's reason", "[core][pods]") {
  // kube-scheduler's handleSchedulingFailure (pkg/scheduler/schedule_one.go, v1.37.2) writes
  // SchedulerError for every failure that is not a rejection: PreBind timeouts and failures.
  fixture_cluster cluster;
  cluster.load_yaml(
      pending_pod("binding", "SchedulerError",
                  "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded"));
  auto pod = cluster.get("", "Pod", "ml", "binding");
  REQUIRE(pod);
  object_state state = core::pod_state(*pod, cluster.context());
  CHECK(state.label == "Pending");
  CHECK(state.reason == "SchedulerError");
  CHECK(state.message == "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded");
  json view = testing::view_of(cluster, core::pod_kind, "ml", "binding");
  REQUIRE(view["waiting"].is_object());
  CHECK(view["waiting"]["message"] ==
        "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded");
  CHECK(view["waiting"]["since"] == "2026-11-29T11:00:00Z");
  CHECK(view["waiting"]["reasons"].empty());
}
