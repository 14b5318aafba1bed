#include "api/resource_views.hpp"

#include "api/out_of_date.hpp"
#include "sections/common/lists.hpp"
#include "util/masking/secrets.hpp"
#include "util/masking/view_strings.hpp"

// Every text these views show goes through util/masking here, whatever a section did: a state's
// message and every note as free text (masking::operator_text), every other string through the
// URI net (masking::mask_view_strings). Sections mask what they know more of (a Serve config, an
// entrypoint, a URI field with its note) themselves, through the same module.
namespace sextant {
namespace {

object_state safe_state(daemon_state& state, const section& owner, const resource_def& resource,
                        const cached_object& object, const view_context& context) {
  if (!resource.state) {
    return {"Unknown", "", ""};
  }
  try {
    return resource.state(object, context);
  } catch (const std::exception& error) {
    state.interpreter_failed(owner.id, resource.id, "state", object.key() + ": " + error.what());
    return {"Unknown", "InterpreterFailed", std::string("This object could not be interpreted: ") + error.what()};
  }
}

}  // namespace

json object_summary(daemon_state& daemon, const section& owner, const resource_def& resource,
                    const cached_object& object, const view_context& context) {
  readings_scope one_reading(context);
  object_state state = safe_state(daemon, owner, resource, object, context);
  json summary = {{"apiVersion", object.api_version},
                  {"kind", object.type.kind},
                  {"namespace", or_null(object.namespace_)},
                  {"name", object.name},
                  {"uid", or_null(object.uid)},
                  {"created", or_null(string_or(object.body(), {"metadata", "creationTimestamp"}))},
                  {"state",
                   {{"label", state.label},
                    {"reason", or_null(state.reason)},
                    {"message", or_null(masking::operator_text(state.message))}}},
                  {"path", context.path_json(object.type, object.namespace_, object.name, false)}};
  if (resource.summarize) {
    try {
      resource.summarize(object, context, summary);
    } catch (const std::exception& error) {
      daemon.interpreter_failed(owner.id, resource.id, "summarize", object.key() + ": " + error.what());
    }
  }
  masking::mask_view_strings(summary);
  return summary;
}

json object_details(daemon_state& state, const section& owner, const resource_def& resource,
                    const cached_object& object, const view_context& context) {
  readings_scope one_reading(context);
  json details = object_summary(state, owner, resource, object, context);
  details_view view;
  auto run = [&](const auto& extend, const section& by, const char* interpreter) {
    try {
      extend(object, context, view);
    } catch (const std::exception& error) {
      state.interpreter_failed(by.id, resource.id, interpreter, object.key() + ": " + error.what());
      view.note(std::string("Part of these details could not be read: ") + error.what());
    }
  };
  if (resource.details) {
    run(resource.details, owner, "details");
  }
  for (const section& s : state.catalog.sections()) {
    for (const details_extension& extension : s.extensions) {
      if (extension.type == object.type && extension.extend) {
        run(extension.extend, s, "details_extension");
      }
    }
  }
  for (auto& [key, block] : view.blocks.items()) {
    details[key] = std::move(block);
  }
  details["links"] = std::move(view.links);
  for (json& note : view.notes) {
    if (note.is_string()) {
      note = masking::operator_text(note.get<std::string>());
    }
  }
  if (std::string stale = out_of_date_reason(context.store, object.type); !stale.empty()) {
    view.notes.insert(view.notes.begin(), "These details " + stale + ".");
  }
  details["notes"] = std::move(view.notes);
  json problems = json::array();
  for (const problem& p : state.problems.for_object(object.type, object.namespace_, object.name)) {
    problems.push_back(p.to_json());
  }
  details["problems"] = std::move(problems);
  masking::mask_view_strings(details);
  return details;
}

json resource_list(daemon_state& state, const section& owner, const resource_def& resource,
                   const std::optional<std::string>& namespace_, const view_context& context) {
  if (resource.list_computed) {
    computed_list computed;
    try {
      computed = resource.list_computed(context);
    } catch (const std::exception& error) {
      state.interpreter_failed(owner.id, resource.id, "list_computed", error.what());
      computed = computed_list{json::array(), true, std::string("the list could not be computed: ") + error.what()};
    }
    json items = json::array();
    for (json& item : computed.items) {
      if (namespace_ && item.is_object() && string_or(item, {"namespace"}) != *namespace_) {
        continue;
      }
      masking::mask_view_strings(item);
      items.push_back(std::move(item));
    }
    return {{"items", std::move(items)},
            {"incomplete", computed.incomplete},
            {"incompleteReason", or_null(masking::operator_text(computed.incomplete_reason))}};
  }
  json items = json::array();
  for (const object_ptr& object : state.store.list(resource.type, namespace_)) {
    items.push_back(object_summary(state, owner, resource, *object, context));
  }
  std::string reason = with_out_of_date(incomplete_reason(context, resource.type), state.store, resource.type);
  return {{"items", std::move(items)}, {"incomplete", !reason.empty()}, {"incompleteReason", or_null(reason)}};
}

}  // namespace sextant
