#pragma once
// What kube-scheduler and a kubelet write to the pods the controllers made, for the live tests
// (no kubelet runs): the binding to a node, a node's Ready status, and a pod's status with the
// state of each of its containers, written through /status. Failures stop the test (REQUIRE).
#include <string>
#include <vector>

#include "admin_client.hpp"
#include "util/json.hpp"

namespace sextant::integration {

// What kube-scheduler does: binds the pod to the node.
void bind_pod(admin_client& admin, const std::string& namespace_, const std::string& pod, const std::string& node);

// A Node as its kubelet reports it: Ready, with room for pods, `labels` as given; created
// without the taint the API server adds to a node no kubelet has reported for yet.
json ready_node(const std::string& name, const json& labels = json::object());
// Creates it, then writes its status as the kubelet would.
void create_ready_node(admin_client& admin, const std::string& name, const json& labels = json::object());

// One container's state as the kubelet reports it.
struct container_state {
  std::string name;
  enum class is { running, waiting, terminated } state = is::running;
  bool ready = false;
  std::string reason;   // waiting or terminated: CrashLoopBackOff, Error, Completed, ...
  std::string message;  // a terminated container's termination message
  int exit_code = 0;
  int restarts = 0;
  // The state before, as lastState.terminated: {reason, message, exitCode}; null for none.
  json last_terminated = nullptr;
};
container_state running(const std::string& name, bool ready);
container_state completed(const std::string& name);
// Not started yet: waiting in PodInitializing while an init container runs.
container_state initializing(const std::string& name);
container_state failed(const std::string& name, int exit_code, const std::string& message);
// Restarted and failed again: waiting in CrashLoopBackOff, the last run terminated with Error.
container_state crash_looping(const std::string& name, int exit_code, const std::string& message, int restarts);

// Writes the pod's status as its kubelet would: the phase (Pending while an init container has
// not completed, else Running), the conditions that follow from the containers' states, and
// each init container's and container's status (the image from the pod's spec). The pod must
// be bound. Returns what the server stored.
json write_pod_status(admin_client& admin, const std::string& namespace_, const std::string& pod,
                      const std::vector<container_state>& init_containers,
                      const std::vector<container_state>& containers);

// Every container of the pod running and ready (init containers completed).
json run_ready(admin_client& admin, const std::string& namespace_, const std::string& pod);

// Deletes the pod at once, as a kubelet confirms the deletion of a pod that stopped.
void delete_pod_now(admin_client& admin, const std::string& namespace_, const std::string& pod);

// The names of the pods matching a label selector ("a=b", URL-encoded by the caller as needed),
// those being deleted left out, sorted.
std::vector<std::string> pod_names(admin_client& admin, const std::string& namespace_, const std::string& selector);

}  // namespace sextant::integration
