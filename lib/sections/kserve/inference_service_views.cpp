// State, summary and details of Inference Services, rendered from one reading
// (inference_service_reading.hpp) and the runtime choice (runtime_choice.hpp). Every URI and
// message shown is masked (shown_uris.hpp, masking::operator_text).
#include <set>

#include "sections/common/conditions.hpp"
#include "sections/common/objects.hpp"
#include "sections/common/read_once.hpp"
#include "sections/kserve/inference_service_reading.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "sections/kserve/runtime_choice.hpp"
#include "sections/kserve/shown_uris.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::kserve {
namespace {

constexpr std::string_view knative_serving = "serving.knative.dev/v1";

// The fields that hold storage URIs and URLs the spec names, by their paths.
struct spec_uri {
  std::string field;
  std::string uri;
};

void add_uri(std::vector<spec_uri>& out, std::string field, const packed_value* value) {
  if (value != nullptr && value->is_string() && !value->empty()) {
    out.push_back({std::move(field), std::string(value->string_view())});
  }
}

// A predictor's storage URIs and logger URL: the model's or a shorthand's storageUri (every
// object member's), storageUris[], logger.url. `at` is its path: spec.predictor, spec.canary[0].predictor.
void predictor_uris(const std::string& at, const packed_value& predictor, std::vector<spec_uri>& out) {
  for (const auto& [key, value] : predictor.items()) {
    if (value.is_object()) {
      add_uri(out, at + "." + std::string(key) + ".storageUri", find(value, {"storageUri"}));
    }
  }
  std::size_t index = 0;
  for (const packed_value& entry : array_or_empty(predictor, {"storageUris"})) {
    add_uri(out, at + ".storageUris[" + std::to_string(index++) + "].uri", find(entry, {"uri"}));
  }
}

std::vector<spec_uri> spec_uris(const packed_value& body) {
  std::vector<spec_uri> out;
  predictor_uris("spec.predictor", object_or_empty(body, {"spec", "predictor"}), out);
  std::size_t index = 0;
  for (const packed_value& explainer_uri : array_or_empty(body, {"spec", "explainer", "storageUris"})) {
    add_uri(out, "spec.explainer.storageUris[" + std::to_string(index++) + "].uri", find(explainer_uri, {"uri"}));
  }
  add_uri(out, "spec.explainer.art.storageUri", find(body, {"spec", "explainer", "art", "storageUri"}));
  for (const char* component : {"predictor", "transformer", "explainer"}) {
    add_uri(out, "spec." + std::string(component) + ".logger.url", find(body, {"spec", component, "logger", "url"}));
  }
  index = 0;
  for (const packed_value& canary : array_or_empty(body, {"spec", "canary"})) {
    const std::string at = "spec.canary[" + std::to_string(index++) + "].predictor";
    const packed_value& predictor = object_or_empty(canary, {"predictor"});
    predictor_uris(at, predictor, out);
    add_uri(out, at + ".logger.url", find(predictor, {"logger", "url"}));
  }
  return out;
}

json traffic_json(const component_reading& component) {
  json out = json::array();
  for (const traffic_target& target : component.traffic) {
    out.push_back({{"revision", or_null(target.revision)},
                   {"tag", or_null(target.tag)},
                   {"latestRevision", target.latest},
                   {"percent", or_null(target.percent)},
                   {"url", uri_json(target.url)}});
  }
  return out;
}

json canary_json(const component_reading& component) {
  if (!component.canary) {
    return nullptr;
  }
  const canary_split& split = *component.canary;
  return {{"revision", or_null(split.revision)},
          {"percent", split.percent},
          {"previousRevision", or_null(split.previous_revision)},
          {"previousPercent", split.previous_percent}};
}

json components_json(const service_reading& reading) {
  json out = json::array();
  for (const component_reading& component : reading.components) {
    out.push_back({{"name", component.name},
                   {"inSpec", component.in_spec},
                   {"ready", or_null(component.ready)},
                   {"url", uri_json(component.url)},
                   {"restUrl", uri_json(component.rest_url)},
                   {"grpcUrl", uri_json(component.grpc_url)},
                   {"address", uri_json(component.address_url)},
                   {"latestReadyRevision", or_null(component.latest_ready_revision)},
                   {"latestCreatedRevision", or_null(component.latest_created_revision)},
                   {"previousRolledoutRevision", or_null(component.previous_rolled_out_revision)},
                   {"latestRolledoutRevision", or_null(component.latest_rolled_out_revision)},
                   {"canaryTrafficPercent", or_null(component.canary_traffic_percent)},
                   {"traffic", traffic_json(component)},
                   {"canary", canary_json(component)}});
  }
  return out;
}

// v0.20's Standard-mode canaries, beside the Knative split of each component: the share each
// asks for, what KServe reports of it, and its storage URIs stripped; null when there is none.
json canaries_json(const service_reading& reading, const std::vector<spec_uri>& uris) {
  if (reading.canaries.empty()) {
    return nullptr;
  }
  json items = json::array();
  std::int64_t canary_percent = 0;
  bool all_known = true;
  for (const standard_canary& canary : reading.canaries) {
    const std::string at = "spec.canary[" + std::to_string(canary.index) + "].";
    json storage = json::array();
    for (const spec_uri& uri : uris) {
      if (uri.field.starts_with(at) && !uri.field.ends_with(".logger.url")) {
        json row = uri_json(uri.uri);
        row["field"] = uri.field;
        storage.push_back(std::move(row));
      }
    }
    canary_percent += canary.percent.value_or(0);
    all_known = all_known && canary.percent.has_value();
    items.push_back({{"name", or_null(masking::operator_text(canary.name))},
                     {"trafficPercent", or_null(canary.percent)},
                     {"ready", or_null(canary.ready)},
                     {"reportedTrafficPercent", or_null(canary.reported_percent)},
                     {"storageUris", std::move(storage)}});
  }
  return {{"stablePercent", all_known && canary_percent <= 100 ? json(100 - canary_percent) : json(nullptr)},
          {"items", std::move(items)}};
}

json model_status_json(const model_status& model) {
  json failure = nullptr;
  if (model.last_failure) {
    const failure_info& info = *model.last_failure;
    failure = {{"location", or_null(info.location)},
               {"reason", or_null(info.reason)},
               {"message", or_null(info.message)},
               {"modelRevisionName", or_null(info.model_revision)},
               {"time", time_or_null(info.time)},
               {"exitCode", or_null(info.exit_code)},
               {"current", info.current}};
  }
  return {{"transitionStatus", or_null(model.transition)},
          {"activeModelState", or_null(model.active)},
          {"targetModelState", or_null(model.target)},
          {"copies", {{"failed", or_null(model.failed_copies)}, {"total", or_null(model.total_copies)}}},
          {"lastFailureInfo", std::move(failure)},
          {"says", or_null(model.words)}};
}

json mode_json(const deployment_mode& mode) {
  return {{"mode", mode.mode}, {"source", or_null(mode.source)}, {"written", or_null(mode.written)}};
}

// Links to what KServe made for each component, by the names it gives them; none of these kinds
// is read, so their paths are null.
void link_made(const cached_object& service, const service_reading& reading, const view_context& context,
               details_view& view) {
  if (reading.mode.mode == cluster_default_mode) {
    view.note(
        "What KServe made for this service depends on the cluster's default deployment mode, which the "
        "daemon does not read; nothing is linked.");
    return;
  }
  std::set<std::string> revisions;
  for (const component_reading& component : reading.components) {
    const std::string name = component.name == "predictor" ? predictor_object_name(service.name, reading.predictor_name)
                                                           : std::string(service.name) + "-" + component.name;
    if (reading.mode.mode == "Knative") {
      view.link(context, "knative-service", std::string(knative_serving), "Service", service.namespace_, name);
      for (const traffic_target& target : component.traffic) {
        if (!target.revision.empty()) {
          revisions.insert(target.revision);
        }
      }
      for (const std::string* revision : {&component.latest_ready_revision, &component.latest_created_revision}) {
        if (!revision->empty()) {
          revisions.insert(*revision);
        }
      }
    } else if (reading.mode.mode == "Standard") {
      view.link(context, "deployment", "apps/v1", "Deployment", service.namespace_, name);
      if (component.name == "predictor" && reading.multi_node && reading.predictor_name.empty()) {
        // A multi-node predictor's workers run in a Deployment of their own,
        // {service}-predictor-worker (constants.PredictorWorkerServiceName,
        // components/predictor.go:472 at v0.16.0). Its head Service's name carries the generation
        // KServe last reconciled, which nothing here tells, so it is not linked.
        view.link(context, "deployment", "apps/v1", "Deployment", service.namespace_, name + "-worker");
      }
      view.link(context, "service", "v1", "Service", service.namespace_, name);
    }
  }
  for (const std::string& revision : revisions) {
    view.link(context, "knative-revision", std::string(knative_serving), "Revision", service.namespace_, revision);
  }
  if (reading.mode.mode == "Standard") {
    for (const standard_canary& canary : reading.canaries) {
      if (!canary.name.empty()) {
        const std::string name = predictor_object_name(service.name, canary.name);
        view.link(context, "canary-deployment", "apps/v1", "Deployment", service.namespace_, name);
        view.link(context, "canary-service", "v1", "Service", service.namespace_, name);
      }
    }
  }
  if (reading.mode.mode == "Knative" || reading.mode.mode == "Standard") {
    view.note(
        "What KServe made is linked by the names it gives it; the daemon does not read Knative Services, "
        "Revisions, Deployments or Services for this section.");
  }
}

}  // namespace

object_state service_state(const cached_object& service, const view_context& context) {
  (void)context;
  return read_once(service, context, read_service)->state;
}

void service_summary(const cached_object& service, const view_context& context, json& summary) {
  (void)context;
  const packed_value& body = service.body();
  summary["deploymentMode"] = read_deployment_mode(body).mode;
  summary["url"] = uri_json(string_or(body, {"status", "url"}));
  summary["modelFormat"] = or_null(model_format_of(body));
}

void service_details(const cached_object& service, const view_context& context, details_view& view) {
  const packed_value& body = service.body();
  const auto reading = read_once(service, context, read_service);
  add_notes(reading->notes, view);
  since_blocks(reading->since, view);
  json why = nullptr;
  if (reading->why) {
    why = {{"source", reading->why->source},
           {"reason", or_null(reading->why->reason)},
           {"message", or_null(reading->why->message)}};
  }
  view.blocks["explanation"] = std::move(why);
  view.blocks["deployment"] = mode_json(reading->mode);
  view.blocks["address"] = uri_json(string_or(body, {"status", "address", "url"}));
  view.blocks["modelStatus"] = model_status_json(reading->model);
  view.blocks["components"] = components_json(*reading);
  const std::vector<spec_uri> written = spec_uris(body);
  view.blocks["canaries"] = canaries_json(*reading, written);
  json uris = json::array();
  for (const spec_uri& uri : written) {
    json row = uri_json(uri.uri);
    row["field"] = uri.field;
    uris.push_back(std::move(row));
  }
  view.blocks["storageUris"] = std::move(uris);

  runtime_choice choice = choose_runtime(body, runtime_lists_for(context, service.namespace_));
  view.blocks["runtime"] = runtime_choice_json(choice);
  std::set<std::pair<std::string, std::string>> linked;
  for (const std::optional<runtime_ref>* ref : {&choice.chosen, &choice.recorded}) {
    if (*ref && linked.insert({(*ref)->kind, (*ref)->name}).second) {
      const bool cluster = (*ref)->kind == cluster_serving_runtime_kind.kind;
      const kind_key& type = cluster ? cluster_serving_runtime_kind : serving_runtime_kind;
      view.link(context, ref == &choice.chosen ? "runtime" : "recorded-runtime", context.api_version(type), type.kind,
                cluster ? "" : service.namespace_, (*ref)->name);
    }
  }
  view.blocks["conditions"] = status_conditions_json(body);
  link_made(service, *reading, context, view);
  link_owners(service, context, view);
}

}  // namespace sextant::kserve
