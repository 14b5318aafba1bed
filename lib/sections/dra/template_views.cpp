// Resource Claim Templates: what a generated claim will ask for, and the pods that use it.
#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/pod_claims.hpp"

namespace sextant::dra {
namespace {

std::string request_texts(const json& read_spec) {
  std::string out;
  for (const json& request : array_or_empty(read_spec, {"requests"})) {
    out += (out.empty() ? "" : "; ") + string_or(request, {"name"}, "(unnamed)") + ": " + string_or(request, {"text"});
  }
  return out;
}

}  // namespace

object_state template_state(const cached_object& claim_template, const view_context&) {
  reading_notes notes;
  json spec = read_claim_spec(member(member(claim_template.body(), "spec"), "spec"), notes);
  std::string requests = request_texts(spec);
  return object_state{"Defined", "",
                      requests.empty() ? "Requests nothing Sextant can read." : "Requests " + requests + "."};
}

void template_summary(const cached_object& claim_template, const view_context&, json& summary) {
  json classes = json::array();
  for (const std::string& name : device_classes_of(member(member(claim_template.body(), "spec"), "spec"))) {
    classes.push_back(name);
  }
  summary["deviceClasses"] = std::move(classes);
}

void template_details(const cached_object& claim_template, const view_context& context, details_view& view) {
  reading_notes notes;
  const packed_value& outer = member(claim_template.body(), "spec");
  if (!outer.is_object()) {
    notes.add(outer.is_null() ? "The template has no spec." : "The template spec is not an object.");
  }
  json spec = read_claim_spec(member(outer, "spec"), notes);
  bool selectors = has_selectors(spec);
  for (auto& [key, block] : spec.items()) {
    view.blocks[key] = std::move(block);
  }
  // Labels and annotations copied onto every claim made from the template.
  view.blocks["claimMetadata"] = {{"labels", member(member(outer, "metadata"), "labels")},
                                  {"annotations", member(member(outer, "metadata"), "annotations")}};
  for (const std::string& device_class : device_classes_of(member(outer, "spec"))) {
    view.link(context, "deviceClass", context.api_version(device_class_kind), "DeviceClass", "", device_class);
  }
  // The pods of the namespace that name this template, with the claim made for each.
  json pods = json::array();
  for (const object_ptr& pod : context.store.list({"", "Pod"}, claim_template.namespace_)) {
    for (const pod_claim& entry : pod_claims(*pod, context)) {
      if (entry.source != "template" || entry.template_name != claim_template.name) {
        continue;
      }
      pods.push_back(
          {{"namespace", pod->namespace_},
           {"name", pod->name},
           {"path", context.path_json(pod->type, pod->namespace_, pod->name)},
           {"podClaimName", entry.name},
           {"claimName", entry.claim_name.empty() ? json(nullptr) : json(entry.claim_name)},
           {"claimPath", entry.claim_name.empty() ? json(nullptr)
                                                  : context.path_json(claim_kind, pod->namespace_, entry.claim_name)}});
    }
  }
  view.blocks["pods"] = std::move(pods);
  if (selectors) {
    view.note(std::string(cel_note));
  }
  for (std::string& sentence : notes.sentences) {
    view.note(std::move(sentence));
  }
}

}  // namespace sextant::dra
