#pragma once
// Runs every interpreter of every registered section, each on its own, and says which threw.
//
// The daemon guards each call (resource_views, the problem engine), so a throw costs a view
// its content rather than the answer; these helpers call them unguarded, for the malformed-object
// test and the fuzz target to find the interpreters that throw at all. Header-only: the fuzz
// targets link only the model, not the unit tests' support.
#include <functional>
#include <string>
#include <vector>

#include "runtime/section_catalog.hpp"

namespace sextant::testing {

struct interpreter_failure {
  std::string section;      // whose code threw
  std::string resource;     // what it was reading: "pods", or a route's segment
  std::string interpreter;  // state, summarize, details, details_extension, problem_rule, list_computed, route,
                            // stream
  std::string error;
};

using failure_sink = std::function<void(const interpreter_failure&)>;

namespace detail {

template <typename Call>
void guarded(const failure_sink& failed, const std::string& section, const std::string& resource,
             const char* interpreter, Call&& call) {
  try {
    call();
  } catch (const std::exception& error) {
    failed({section, resource, interpreter, error.what()});
  } catch (...) {
    failed({section, resource, interpreter, "a non-standard exception"});
  }
}

}  // namespace detail

// The route arguments a section route is asked about an object with: its resource, namespace
// and name (/api/v1/kueue/queue/{jobresource}/{namespace}/{name}).
inline std::vector<std::string> route_arguments(const resource_def& resource, const cached_object& object) {
  std::vector<std::string> rest{resource.id};
  if (resource.namespaced) {
    rest.emplace_back(object.namespace_);
  }
  rest.emplace_back(object.name);
  return rest;
}

// Every interpreter that reads one object: its resource's state, summary and details, every
// section's details extensions and problem rules of its kind, and every section route asked
// about it. A state must give a label: an empty one is a failure too.
inline void run_interpreters_on(const section_catalog& catalog, const cached_object& object,
                                const view_context& context, const failure_sink& failed) {
  resource_match match = catalog.resource_for_kind(object.type);
  if (match.resource != nullptr) {
    const resource_def& r = *match.resource;
    const std::string& owner = match.owner->id;
    if (r.state) {
      detail::guarded(failed, owner, r.id, "state", [&] {
        if (r.state(object, context).label.empty()) {
          throw std::runtime_error("the state has no label");
        }
      });
    }
    if (r.summarize) {
      detail::guarded(failed, owner, r.id, "summarize", [&] {
        json summary = json::object();
        r.summarize(object, context, summary);
      });
    }
    if (r.details) {
      detail::guarded(failed, owner, r.id, "details", [&] {
        details_view view;
        r.details(object, context, view);
      });
    }
  }
  const std::string resource = match.resource != nullptr ? match.resource->id : object.type.to_string();
  for (const section& s : catalog.sections()) {
    for (const details_extension& extension : s.extensions) {
      if (extension.type == object.type && extension.extend) {
        detail::guarded(failed, s.id, resource, "details_extension", [&] {
          details_view view;
          extension.extend(object, context, view);
        });
      }
    }
    for (const problem_rule& rule : s.rules) {
      if (rule.type == object.type && rule.evaluate) {
        detail::guarded(failed, s.id, resource, "problem_rule", [&] { (void)rule.evaluate(object, context); });
      }
    }
    if (match.resource != nullptr) {
      const std::vector<std::string> rest = route_arguments(*match.resource, object);
      for (const section_route& route : s.routes) {
        detail::guarded(failed, s.id, route.segment, "route", [&] { (void)route.handle(rest, context); });
      }
      // Streaming routes plan from the cache too: asked about the object with each role a logs
      // route takes (a plan is all they make; nothing is streamed here).
      for (const streaming_route& stream : s.streams) {
        if (stream.resource != match.resource->id || !stream.open) {
          continue;
        }
        for (const char* role : {"head", "workers", "submitter", ""}) {
          detail::guarded(failed, s.id, stream.resource, "stream", [&] {
            (void)stream.open(
                stream_request{
                    std::string(object.namespace_), std::string(object.name), {{"role", role}, {"tailLines", "10"}}},
                context);
          });
        }
      }
    }
  }
}

// The interpreters that read the whole store: every computed page's list.
inline void run_computed_lists(const section_catalog& catalog, const view_context& context,
                               const failure_sink& failed) {
  for (const section& s : catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (r.list_computed) {
        detail::guarded(failed, s.id, r.id, "list_computed", [&] { (void)r.list_computed(context); });
      }
    }
  }
}

// Every interpreter over every object of the store, and every computed list.
inline void run_every_interpreter(const section_catalog& catalog, const object_store& store,
                                  const view_context& context, const failure_sink& failed) {
  for (const kind_key& type : store.kinds()) {
    for (const object_ptr& object : store.list(type)) {
      run_interpreters_on(catalog, *object, context, failed);
    }
  }
  run_computed_lists(catalog, context, failed);
}

}  // namespace sextant::testing
