// Device Classes: their CEL selectors as written, driver configuration as JSON text, the
// extended resource they back, and the claims and templates that name them.
#include <algorithm>

#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"

namespace sextant::dra {
namespace {

// At most this many claims and templates are listed as using a class.
constexpr std::size_t users_shown = 100;

json users_of(const kind_key& type, std::string_view device_class, const view_context& context, bool templates,
              details_view& view) {
  json out = json::array();
  std::size_t total = 0;
  for (const object_ptr& object : context.store.list(type)) {
    const packed_value& spec =
        templates ? member(member(object->body(), "spec"), "spec") : member(object->body(), "spec");
    std::vector<std::string> classes = device_classes_of(spec);
    if (std::find(classes.begin(), classes.end(), device_class) == classes.end()) {
      continue;
    }
    if (++total <= users_shown) {
      out.push_back({{"namespace", object->namespace_},
                     {"name", object->name},
                     {"path", context.path_json(type, object->namespace_, object->name)}});
    }
  }
  if (total > users_shown) {
    view.note("Only the first " + std::to_string(users_shown) + " of " + std::to_string(total) + " " +
              (templates ? "templates" : "claims") + " naming this class are listed.");
  }
  return out;
}

}  // namespace

object_state device_class_state(const cached_object& device_class, const view_context&) {
  reading_notes notes;
  json selectors = cel_expressions(member(member(device_class.body(), "spec"), "selectors"), notes, "the class");
  std::size_t count = selectors.size();
  return object_state{"Defined", "",
                      count == 0 ? "Selects every device (no selector)."
                                 : "Selects devices with " + std::to_string(count) +
                                       (count == 1 ? " CEL selector." : " CEL selectors.")};
}

void device_class_summary(const cached_object& device_class, const view_context&, json& summary) {
  summary["extendedResourceName"] = string_or_null(device_class.body(), {"spec", "extendedResourceName"});
}

void device_class_details(const cached_object& device_class, const view_context& context, details_view& view) {
  reading_notes notes;
  const packed_value& spec = member(device_class.body(), "spec");
  if (!spec.is_object()) {
    notes.add(spec.is_null() ? "The class has no spec: it selects every device."
                             : "The class spec is not an object; it cannot be read.");
  }
  json selectors = cel_expressions(member(spec, "selectors"), notes, "the class");
  bool any_selector = !selectors.empty();
  view.blocks["selectors"] = std::move(selectors);
  json config = json::array();
  for (const packed_value& entry : array_or_empty(spec, {"config"})) {
    config.push_back(read_opaque_config(entry, notes, "the class"));
  }
  view.blocks["config"] = std::move(config);
  // Since 1.34 every class backs an implicit extended resource, and may name an explicit one.
  view.blocks["implicitExtendedResourceName"] = "deviceclass.resource.kubernetes.io/" + std::string(device_class.name);
  view.blocks["usedByClaims"] = users_of(claim_kind, device_class.name, context, false, view);
  view.blocks["usedByTemplates"] = users_of(template_kind, device_class.name, context, true, view);
  if (any_selector) {
    view.note(std::string(cel_note));
  }
  for (std::string& sentence : notes.sentences) {
    view.note(std::move(sentence));
  }
}

}  // namespace sextant::dra
