#include "sections/kserve/inference_service_reading.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "sections/common/conditions.hpp"
#include "sections/common/field_types.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::kserve {
namespace {

constexpr std::array<std::string_view, 3> component_names = {"predictor", "transformer", "explainer"};

// The conditions an explanation is taken from, most basic first (api: the components before
// configurations, deployments, routes and ingress); Ready, the aggregate, last.
constexpr std::array<std::string_view, 12> explaining_conditions = {"PredictorReady",
                                                                    "TransformerReady",
                                                                    "ExplainerReady",
                                                                    "PredictorConfigurationReady",
                                                                    "TransformerConfigurationReady",
                                                                    "ExplainerConfigurationReady",
                                                                    "LatestDeploymentReady",
                                                                    "PredictorRouteReady",
                                                                    "TransformerRouteReady",
                                                                    "ExplainerRoutesReady",
                                                                    "RoutesReady",
                                                                    "IngressReady"};

// Reasons KServe writes on PredictorReady for a spec it cannot run (not in the CRD's enum).
bool invalid_spec_reason(std::string_view reason) {
  return reason == "InvalidWorkerSpecNotSet" || reason == "InvalidGPUAllocation";
}

std::string capitalized(std::string_view name) {
  std::string out(name);
  if (!out.empty()) {
    out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  }
  return out;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A mode name as KServe reads it: the names before v0.16 read as the new ones.
std::string normalized_mode(std::string_view written) {
  if (written == "Serverless" || written == "Knative") {
    return "Knative";
  }
  if (written == "RawDeployment" || written == "Standard") {
    return "Standard";
  }
  if (written == "ModelMesh") {
    return "ModelMesh";
  }
  return {};
}

model_status read_model_status(const packed_value& body) {
  const packed_value& status = object_or_empty(body, {"status", "modelStatus"});
  model_status model;
  model.transition = string_or(status, {"transitionStatus"});
  model.active = string_or(status, {"states", "activeModelState"});
  model.target = string_or(status, {"states", "targetModelState"});
  model.failed_copies = get_int(status, {"copies", "failedCopies"});
  model.total_copies = get_int(status, {"copies", "totalCopies"});
  const packed_value* failure = find(status, {"lastFailureInfo"});
  if (failure != nullptr && failure->is_object() && !failure->empty()) {
    failure_info info;
    info.location = string_or(*failure, {"location"});
    info.reason = string_or(*failure, {"reason"});
    info.message = masking::operator_text(string_or(*failure, {"message"}));
    info.model_revision = string_or(*failure, {"modelRevisionName"});
    info.time = parse_rfc3339(string_or(*failure, {"time"}));
    info.exit_code = get_int(*failure, {"exitCode"});
    model.last_failure = std::move(info);
  }
  const std::string& state = model.target.empty() ? model.active : model.target;
  // Whether the model fails now is told by the transition and the target state alone: KServe sets
  // them together (UpdateModelRevisionStates, UpdateModelTransitionStatus:
  // pkg/apis/serving/v1beta1/inference_service_status.go:658-692 at v0.20.0) but only ever
  // replaces lastFailureInfo, never clears it, so a model that failed once keeps its record through
  // every later rollout, load and scale to zero.
  model.fails_now =
      model.transition == "BlockedByFailedLoad" || model.transition == "InvalidSpec" || model.target == "FailedToLoad";
  if (model.last_failure) {
    model.last_failure->current = model.fails_now;
  }
  if (model.transition == "BlockedByFailedLoad" || (state == "FailedToLoad" && model.transition != "InvalidSpec")) {
    model.words = "The model failed to load.";
  } else if (model.transition == "InvalidSpec") {
    model.words = "KServe cannot run the spec as written, so no model is loaded.";
  } else if (state == "Loading") {
    model.words =
        "The model is loading: the storage initializer may still be downloading it (a very large model "
        "takes a while).";
  } else if (state == "Pending") {
    // KServe writes Pending when the predictor has no pod, and also when its pods run but the
    // service is not Ready and no server container failed (PropagateModelStatus:
    // pkg/apis/serving/v1beta1/inference_service_status.go:680-697,749-767 at v0.16.0): a pod
    // running and not ready, or a multi-node predictor whose Ready KServe leaves Unknown.
    model.words = "The model is pending: KServe has not found the predictor ready yet.";
  } else if (state == "Standby") {
    model.words = "The model is on standby: it is not loaded yet.";
  } else if (state == "Loaded") {
    model.words = model.transition == "InProgress" ? "A model is loaded; a new revision is being rolled out."
                                                   : "The model is loaded.";
  }
  if (model.failed_copies.value_or(0) > 0) {
    model.words += (model.words.empty() ? "" : " ") + std::to_string(*model.failed_copies) + " copies failed (" +
                   std::to_string(model.total_copies.value_or(0)) + " ready).";
  }
  return model;
}

component_reading read_component(const packed_value& body, std::string_view name) {
  component_reading component;
  component.name = std::string(name);
  const packed_value* spec = find(body, {"spec", name});
  component.in_spec = spec != nullptr && spec->is_object();
  component.canary_traffic_percent = get_int(body, {"spec", name, "canaryTrafficPercent"});
  const packed_value& status = object_or_empty(body, {"status", "components", name});
  component.url = string_or(status, {"url"});
  component.rest_url = string_or(status, {"restUrl"});
  component.grpc_url = string_or(status, {"grpcUrl"});
  component.address_url = string_or(status, {"address", "url"});
  component.latest_ready_revision = string_or(status, {"latestReadyRevision"});
  component.latest_created_revision = string_or(status, {"latestCreatedRevision"});
  component.previous_rolled_out_revision = string_or(status, {"previousRolledoutRevision"});
  component.latest_rolled_out_revision = string_or(status, {"latestRolledoutRevision"});
  for (const packed_value& target : array_or_empty(status, {"traffic"})) {
    traffic_target out;
    out.tag = string_or(target, {"tag"});
    out.revision = string_or(target, {"revisionName"});
    out.configuration = string_or(target, {"configurationName"});
    out.latest = get_bool(target, {"latestRevision"}).value_or(false);
    out.percent = get_int(target, {"percent"});
    out.url = string_or(target, {"url"});
    component.traffic.push_back(std::move(out));
  }
  component.ready = condition_status(condition_of(body, capitalized(name) + "Ready"));

  // A split: the latest revision takes less than all, another revision the rest.
  const traffic_target* latest = nullptr;
  const traffic_target* previous = nullptr;
  for (const traffic_target& target : component.traffic) {
    if (target.percent.value_or(0) <= 0) {
      continue;
    }
    if (target.latest && latest == nullptr) {
      latest = &target;
    } else if (!target.latest && previous == nullptr) {
      previous = &target;
    }
  }
  if (latest != nullptr && previous != nullptr) {
    canary_split split;
    split.revision = !latest->revision.empty() ? latest->revision : component.latest_ready_revision;
    split.percent = latest->percent.value_or(0);
    split.previous_revision = previous->revision;
    split.previous_percent = previous->percent.value_or(0);
    component.canary = split;
  }
  return component;
}

void note_canary(const component_reading& component, const deployment_mode& mode, std::vector<std::string>& notes) {
  if (!component.canary_traffic_percent || component.canary) {
    return;
  }
  const std::string percent = std::to_string(*component.canary_traffic_percent);
  const std::string field = "spec." + component.name + ".canaryTrafficPercent";
  if (mode.mode == "Standard" || mode.mode == "ModelMesh") {
    notes.push_back(field + " is " + percent +
                    ", but KServe splits traffic by it in Knative mode only (in Standard mode, KServe v0.20 runs the "
                    "canaries of spec.canary).");
  } else if (component.latest_rolled_out_revision.empty()) {
    notes.push_back(field + " is " + percent +
                    ": it takes effect once a revision has rolled out; until then the first revision takes all "
                    "traffic.");
  } else if (*component.canary_traffic_percent < 100) {
    notes.push_back(field + " is " + percent +
                    ", but the status shows no split yet: KServe has not rolled the new revision out, or the canary "
                    "was promoted.");
  }
}

// spec.canary beside status.canaryStatuses, matched by name: KServe rewrites the statuses from the
// spec on every reconcile (reconcileCanaryDeployments: components/predictor.go:959-1000 at
// v0.20.0), so a canary the status lacks is not reported yet.
std::vector<standard_canary> read_canaries(const packed_value& body, const deployment_mode& mode,
                                           std::vector<std::string>& notes) {
  std::vector<standard_canary> out;
  const packed_value& statuses = array_or_empty(body, {"status", "canaryStatuses"});
  std::size_t index = 0;
  for (const packed_value& entry : array_or_empty(body, {"spec", "canary"})) {
    standard_canary canary;
    canary.index = index++;
    canary.name = string_or(entry, {"predictor", "name"});
    canary.percent = get_int(entry, {"trafficPercent"});
    for (const packed_value& status : statuses) {
      if (!canary.name.empty() && string_or(status, {"name"}) == canary.name) {
        canary.ready = get_bool(status, {"ready"});
        canary.reported_percent = get_int(status, {"trafficPercent"});
        break;
      }
    }
    if (canary.name.empty()) {
      notes.push_back("spec.canary[" + std::to_string(canary.index) +
                      "] has no predictor.name, which KServe requires: it refuses the spec.");
    } else if (!canary.ready) {
      notes.push_back("Canary " + masking::operator_text(canary.name) +
                      " is not in status.canaryStatuses yet: KServe has not reported on it.");
    }
    out.push_back(std::move(canary));
  }
  if (!out.empty() && mode.mode != "Standard" && mode.mode != std::string(cluster_default_mode)) {
    notes.push_back("spec.canary is served in Standard mode only: KServe refuses it in " + mode.mode + " mode.");
  }
  return out;
}

object_state from_explanation(std::string label, const std::optional<explanation>& why) {
  if (!why) {
    return {std::move(label), "", ""};
  }
  return {std::move(label), why->reason, why->message};
}

}  // namespace

std::string predictor_object_name(std::string_view service, std::string_view predictor_name) {
  std::string name(service);
  if (!predictor_name.empty()) {
    name += "-" + std::string(predictor_name);
  }
  return name + "-predictor";
}

bool stop_annotation_set(const packed_value& body) {
  return equals_ignoring_case(string_or(body, {"metadata", "annotations", stop_annotation}), "true");
}

deployment_mode read_deployment_mode(const packed_value& body) {
  deployment_mode mode;
  const std::string status = string_or(body, {"status", "deploymentMode"});
  if (!status.empty()) {
    mode.written = status;
    mode.source = "status";
    mode.mode = normalized_mode(status);
    if (mode.mode.empty()) {
      mode.mode = status;  // a mode this reading does not know: as written
    }
    return mode;
  }
  const std::string annotation = string_or(body, {"metadata", "annotations", deployment_mode_annotation});
  if (!normalized_mode(annotation).empty()) {
    mode.written = annotation;
    mode.source = "annotation";
    mode.mode = normalized_mode(annotation);
    return mode;
  }
  mode.written = annotation;
  mode.mode = std::string(cluster_default_mode);
  return mode;
}

service_reading read_service(const cached_object& service) {
  const packed_value& body = service.body();
  service_reading reading;
  note_wrong_types(body,
                   {{"status.conditions", field_type::array},
                    {"status.modelStatus", field_type::object},
                    {"status.components", field_type::object},
                    {"spec.canary", field_type::array},
                    {"status.canaryStatuses", field_type::array}},
                   reading.notes);
  reading.mode = read_deployment_mode(body);
  if (reading.mode.source.empty() && !reading.mode.written.empty()) {
    reading.notes.push_back("The deployment mode annotation says \"" + masking::operator_text(reading.mode.written) +
                            "\", which KServe does not read; the cluster's default applies.");
  } else if (reading.mode.source == "status" && reading.mode.mode == reading.mode.written &&
             normalized_mode(reading.mode.written).empty()) {
    reading.notes.push_back("status.deploymentMode is \"" + masking::operator_text(reading.mode.written) +
                            "\", a mode this daemon does not know.");
  }
  reading.model = read_model_status(body);
  reading.predictor_name = string_or(body, {"spec", "predictor", "name"});
  const packed_value* workers = find(body, {"spec", "predictor", "workerSpec"});
  reading.multi_node = workers != nullptr && !workers->is_null();
  reading.canaries = read_canaries(body, reading.mode, reading.notes);
  for (std::string_view name : component_names) {
    component_reading component = read_component(body, name);
    if (component.in_spec || find(body, {"status", "components", name}) != nullptr) {
      note_canary(component, reading.mode, reading.notes);
      reading.components.push_back(std::move(component));
    }
  }

  const packed_value* ready = condition_of(body, "Ready");
  const packed_value* stopped = condition_of(body, "Stopped");
  const packed_value* predictor = condition_of(body, "PredictorReady");

  const packed_value* failing = nullptr;
  for (std::string_view type : explaining_conditions) {
    const packed_value* condition = condition_of(body, type);
    if (condition != nullptr && !condition_true(condition)) {
      failing = condition;
      break;
    }
  }
  if (failing == nullptr && ready != nullptr && !condition_true(ready)) {
    failing = ready;
  }
  auto condition_explanation = [](const packed_value* condition) {
    return explanation{string_or(*condition, {"type"}), condition_reason(condition),
                       masked_condition_message(condition)};
  };

  if (condition_true(stopped) || stop_annotation_set(body)) {
    reading.stopped = true;
    reading.state = {"Stopped", "Stopped",
                     condition_true(stopped) ? "Stopped: KServe removed the model's serving resources."
                                             : "The stop annotation is set; KServe stops the service."};
    reading.since.since = condition_true(stopped) ? since_of(stopped, body) : std::nullopt;
    reading.why.reset();
    return reading;
  }

  const std::string& transition = reading.model.transition;
  reading.invalid_spec = transition == "InvalidSpec" || invalid_spec_reason(condition_reason(predictor));
  reading.failed_to_load = !reading.invalid_spec && reading.model.fails_now;
  // The model's own failure explains first, when it is the current one; else the most basic
  // condition that is not True.
  const std::optional<failure_info>& failure = reading.model.last_failure;
  if (failure && failure->current && (!failure->message.empty() || !failure->reason.empty())) {
    reading.why = explanation{"modelStatus.lastFailureInfo", failure->reason, failure->message};
  } else if (failure && (!failure->message.empty() || !failure->reason.empty())) {
    reading.notes.push_back("status.modelStatus.lastFailureInfo records an earlier failure (" +
                            (failure->reason.empty() ? std::string("no reason") : failure->reason) +
                            "), which KServe never clears: it is history, not the current state (transitionStatus " +
                            (transition.empty() ? std::string("not set") : transition) + ").");
  }
  if (!reading.why && failing != nullptr && !condition_true(ready)) {
    reading.why = condition_explanation(failing);
  }
  if (reading.failed_to_load && condition_true(ready)) {
    reading.notes.push_back(
        "KServe still reports Ready: the revision loaded before keeps serving while the new "
        "model failed to load.");
  }
  if (reading.invalid_spec || reading.failed_to_load) {
    reading.state = from_explanation("Failed", reading.why);
    if (reading.state.message.empty()) {
      reading.state.message = reading.invalid_spec ? "The spec is invalid." : "The model failed to load.";
    }
    if (failure && failure->time) {
      reading.since.since = failure->time;
    } else if (!condition_true(ready)) {
      reading.since.since = since_of(ready != nullptr ? ready : predictor, body);
    } else {
      // Ready is still True from the revision before (a failing reconcile leaves the conditions as
      // they were: components/predictor.go:331-368 at v0.20.0 returns before PropagateStatus), and
      // KServe v0.16-v0.20 write no lastFailureInfo.time: nothing tells since when it fails.
      reading.since.first_sighting =
          "KServe does not record since when the model fails while Ready is still True from before: since is "
          "when this daemon first saw it so.";
    }
    return reading;
  }
  if (condition_true(ready)) {
    reading.state = condition_state("Ready", ready);
    reading.since.since = transition_time(ready);
    reading.why.reset();
    return reading;
  }
  reading.not_ready = true;
  reading.since.since = since_of(ready, body);
  const bool in_progress = transition == "InProgress" || reading.model.target == "Loading" ||
                           reading.model.target == "Pending" || ready == nullptr ||
                           condition_status(ready) == "Unknown";
  reading.state = from_explanation(in_progress ? "Progressing" : "Not ready", reading.why);
  if (reading.state.message.empty()) {
    reading.state.message = ready == nullptr ? "KServe has not reported on this service yet." : reading.model.words;
  }
  return reading;
}

}  // namespace sextant::kserve
