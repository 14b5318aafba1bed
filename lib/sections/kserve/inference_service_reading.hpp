#pragma once
// One reading per Inference Service, shared by its state, summary, details and problem rules:
// the state and its explanation, the deployment mode, the model status and each component with
// its traffic. Every message a reading keeps is already masked (masking::operator_text); URIs are
// kept as written and stripped by the views (shown_uris.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/common/since.hpp"
#include "sections/section.hpp"

namespace sextant::kserve {

// status.modelStatus.lastFailureInfo.
struct failure_info {
  std::string location;
  std::string reason;
  std::string message;  // masked
  std::string model_revision;
  std::optional<time_point> time;
  std::optional<std::int64_t> exit_code;
  bool current = false;  // the model fails now; else the record is history (KServe never clears it)
};

// status.modelStatus, and what it says in words.
struct model_status {
  std::string transition;  // UpToDate, InProgress, BlockedByFailedLoad, InvalidSpec
  std::string active;      // Pending, Standby, Loading, Loaded, FailedToLoad
  std::string target;
  std::optional<std::int64_t> failed_copies;
  std::optional<std::int64_t> total_copies;  // KServe writes the ready pods' count here
  std::optional<failure_info> last_failure;
  bool fails_now = false;  // BlockedByFailedLoad, InvalidSpec or a FailedToLoad target
  std::string words;       // "The model is loading: ..." (empty when KServe has written nothing)
};

// One entry of a component's status traffic (Knative's TrafficTarget).
struct traffic_target {
  std::string tag;
  std::string revision;
  std::string configuration;
  bool latest = false;
  std::optional<std::int64_t> percent;
  std::string url;  // as written; views strip it
};

// The canary split of one component: the latest revision's share beside the previous one's.
struct canary_split {
  std::string revision;  // the latest (canary) revision, when named
  std::int64_t percent = 0;
  std::string previous_revision;
  std::int64_t previous_percent = 0;
};

struct component_reading {
  std::string name;  // predictor, transformer, explainer
  bool in_spec = false;
  std::string url;  // as written; views strip them
  std::string rest_url;
  std::string grpc_url;
  std::string address_url;
  std::string latest_ready_revision;
  std::string latest_created_revision;
  std::string previous_rolled_out_revision;
  std::string latest_rolled_out_revision;
  std::vector<traffic_target> traffic;
  std::optional<std::int64_t> canary_traffic_percent;  // spec.<component>.canaryTrafficPercent
  std::optional<canary_split> canary;
  std::string ready;  // the <Component>Ready condition's status, empty when absent
};

// One of KServe v0.20's Standard-mode canaries: spec.canary[] beside status.canaryStatuses[]
// (pkg/apis/serving/v1beta1/inference_service.go:36-59, inference_service_status.go:54-57,99-109
// at v0.20.0). Each runs as its own Deployment and Service, {service}-{name}-predictor.
struct standard_canary {
  std::size_t index = 0;                         // in spec.canary
  std::string name;                              // spec.canary[].predictor.name
  std::optional<std::int64_t> percent;           // spec.canary[].trafficPercent
  std::optional<bool> ready;                     // status.canaryStatuses[].ready: unknown until reported
  std::optional<std::int64_t> reported_percent;  // status.canaryStatuses[].trafficPercent
};

// Knative, Standard or ModelMesh (the old names read as the new), or "the cluster's default".
struct deployment_mode {
  std::string mode;
  std::string source;   // "status", "annotation", or empty for the cluster's default
  std::string written;  // as the status or annotation wrote it
};
inline constexpr std::string_view cluster_default_mode = "the cluster's default";

// Why the state is what it is: the model's own failure, else the most basic failing condition.
struct explanation {
  std::string source;  // "modelStatus.lastFailureInfo", or a condition type
  std::string reason;
  std::string message;  // masked
};

struct service_reading {
  object_state state;
  since_source since;  // first_sighting set when nothing tells since when: the problem counts from the first sighting
  bool stopped = false;
  bool failed_to_load = false;
  bool invalid_spec = false;
  bool not_ready = false;  // Not ready or Progressing: the 10-minute problem reads it
  std::optional<explanation> why;
  deployment_mode mode;
  model_status model;
  std::vector<component_reading> components;  // predictor, transformer, explainer, those present
  std::vector<standard_canary> canaries;      // v0.20's spec.canary, in spec order
  std::string predictor_name;                 // spec.predictor.name (v0.20): it names the predictor's objects
  bool multi_node = false;                    // spec.predictor.workerSpec: KServe makes a worker Deployment too
  std::vector<std::string> notes;
};
service_reading read_service(const cached_object& service);

// The name KServe gives a predictor's Deployment, Service or Knative Service: {service}-predictor,
// or {service}-{name}-predictor for a named predictor or a canary (constants.PredictorServiceName,
// pkg/constants/constants.go:799-804 at v0.20.0).
std::string predictor_object_name(std::string_view service, std::string_view predictor_name);

// The deployment mode as KServe resolves it, without its configuration: status, then annotation.
deployment_mode read_deployment_mode(const packed_value& body);

// Whether the stop annotation says "true" (case-insensitive, as KServe reads it).
bool stop_annotation_set(const packed_value& body);

}  // namespace sextant::kserve
