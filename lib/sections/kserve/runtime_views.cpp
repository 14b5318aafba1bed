// State, summary and details of Serving Runtimes and Cluster Serving Runtimes: what each offers
// to KServe's runtime choice (formats, auto-select, priorities, protocols, multi-model and
// multi-node), and the Inference Services whose status records it.
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/objects.hpp"
#include "sections/kserve/kserve_section.hpp"

namespace sextant::kserve {
namespace {

json formats_json(const packed_value& spec) {
  json out = json::array();
  for (const packed_value& format : array_or_empty(spec, {"supportedModelFormats"})) {
    out.push_back({{"name", or_null(string_or(format, {"name"}))},
                   {"version", or_null(get_string(format, {"version"}))},
                   {"autoSelect", get_bool(format, {"autoSelect"}).value_or(false)},
                   {"priority", or_null(get_int(format, {"priority"}))}});
  }
  return out;
}

json protocols_json(const packed_value& spec) {
  json out = json::array();
  for (const packed_value& protocol : array_or_empty(spec, {"protocolVersions"})) {
    if (protocol.is_string()) {
      out.push_back(std::string(protocol.string_view()));
    }
  }
  return out;
}

bool multi_node(const packed_value& spec) {
  const packed_value* workers = find(spec, {"workerSpec"});
  return workers != nullptr && !workers->is_null();
}

}  // namespace

object_state runtime_state(const cached_object& runtime, const view_context& context) {
  (void)context;
  if (get_bool(runtime.body(), {"spec", "disabled"}).value_or(false)) {
    return {"Disabled", "", "spec.disabled is true: KServe chooses it for no model."};
  }
  return {"Enabled", "", ""};
}

void runtime_summary(const cached_object& runtime, const view_context& context, json& summary) {
  (void)context;
  const packed_value& spec = object_or_empty(runtime.body(), {"spec"});
  json formats = json::array();
  for (const packed_value& format : array_or_empty(spec, {"supportedModelFormats"})) {
    formats.push_back(string_or(format, {"name"}));
  }
  summary["modelFormats"] = std::move(formats);
  summary["protocolVersions"] = protocols_json(spec);
  summary["disabled"] = get_bool(spec, {"disabled"}).value_or(false);
  summary["multiModel"] = get_bool(spec, {"multiModel"}).value_or(false);
  summary["multiNode"] = multi_node(spec);
}

void runtime_details(const cached_object& runtime, const view_context& context, details_view& view) {
  const packed_value& spec = object_or_empty(runtime.body(), {"spec"});
  view.blocks["supportedModelFormats"] = formats_json(spec);
  if (protocols_json(spec).empty()) {
    view.note("No protocolVersions: KServe lets it serve any protocol, and ranks it after runtimes that list some.");
  }
  json containers = json::array();
  for (const packed_value& container : array_or_empty(spec, {"containers"})) {
    containers.push_back(
        {{"name", or_null(string_or(container, {"name"}))}, {"image", or_null(string_or(container, {"image"}))}});
  }
  view.blocks["containers"] = std::move(containers);

  // The Inference Services whose status says KServe uses this runtime.
  const bool cluster = runtime.type == cluster_serving_runtime_kind;
  const char* field = cluster ? "clusterServingRuntimeName" : "servingRuntimeName";
  json users = json::array();
  std::vector<object_ptr> services = cluster ? context.store.list(inference_service_kind)
                                             : context.store.list(inference_service_kind, runtime.namespace_);
  for (const object_ptr& service : services) {
    if (string_or(service->body(), {"status", field}) == runtime.name) {
      users.push_back(link_json(context, *service));
    }
  }
  const std::string reason = incomplete_reason(context, inference_service_kind);
  view.blocks["usedBy"] = {
      {"items", std::move(users)}, {"incomplete", !reason.empty()}, {"incompleteReason", or_null(reason)}};
  link_owners(runtime, context, view);
}

}  // namespace sextant::kserve
