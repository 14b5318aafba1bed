#include "sections/kueue/kueue_fields.hpp"

#include <algorithm>

namespace sextant::kueue {

std::string cohort_of(const packed_value& cluster_queue) {
  std::string cohort = string_or(cluster_queue, {"spec", "cohortName"});
  return cohort.empty() ? string_or(cluster_queue, {"spec", "cohort"}) : cohort;
}

std::string parent_of(const packed_value& cohort) {
  std::string parent = string_or(cohort, {"spec", "parentName"});
  return parent.empty() ? string_or(cohort, {"spec", "parent"}) : parent;
}

std::vector<std::string> admission_checks_of(const packed_value& cluster_queue) {
  std::vector<std::string> names;
  auto add = [&names](std::string name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(std::move(name));
    }
  };
  for (const packed_value& name : array_or_empty(cluster_queue, {"spec", "admissionChecks"})) {
    if (name.is_string()) {
      add(name.get<std::string>());
    }
  }
  for (const packed_value& rule :
       array_or_empty(cluster_queue, {"spec", "admissionChecksStrategy", "admissionChecks"})) {
    add(string_or(rule, {"name"}));
  }
  return names;
}

const packed_value& local_queue_usage(const packed_value& local_queue) {
  if (const packed_value* usage = find(local_queue, {"status", "flavorsUsage"});
      usage != nullptr && usage->is_array()) {
    return *usage;
  }
  return array_or_empty(local_queue, {"status", "flavorUsage"});
}

std::optional<std::int64_t> accumulated_execution_seconds(const packed_value& workload) {
  if (auto seconds = get_int(workload, {"status", "accumulatedPastExecutionTimeSeconds"})) {
    return seconds;
  }
  return get_int(workload, {"status", "accumulatedPastExexcutionTimeSeconds"});
}

std::optional<priority_class_ref> priority_class_of(const packed_value& workload) {
  if (const packed_value* ref = find(workload, {"spec", "priorityClassRef"}); ref != nullptr && ref->is_object()) {
    return priority_class_ref{string_or(*ref, {"name"}), string_or(*ref, {"kind"}, "WorkloadPriorityClass")};
  }
  std::string name = string_or(workload, {"spec", "priorityClassName"});
  if (name.empty()) {
    return std::nullopt;
  }
  std::string source = string_or(workload, {"spec", "priorityClassSource"});
  return priority_class_ref{name,
                            source == "scheduling.k8s.io/priorityclass" ? "PriorityClass" : "WorkloadPriorityClass"};
}

std::string stop_policy_of(const packed_value& queue) {
  return string_or(queue, {"spec", "stopPolicy"}, "None");
}

bool being_deleted(const packed_value& object) {
  return find(object, {"metadata", "deletionTimestamp"}) != nullptr;
}

std::string kueue_api_version(const view_context& context, const kind_key& type) {
  if (const served_kind* served = context.served.find(type); served != nullptr && !served->versions.empty()) {
    return type.group + "/" + served->versions.front();
  }
  return type.group + "/v1beta2";
}

json link_json(const view_context& context, const kind_key& type, const std::string& api_version,
               const std::string& namespace_, const std::string& name) {
  return json{{"apiVersion", api_version},
              {"kind", type.kind},
              {"namespace", namespace_.empty() ? json(nullptr) : json(namespace_)},
              {"name", name},
              {"path", context.path_json(type, namespace_, name)}};
}

json link_json(const view_context& context, const cached_object& object) {
  return link_json(context, object.type, object.api_version, object.namespace_, object.name);
}

json kueue_link(const view_context& context, const kind_key& type, const std::string& namespace_,
                const std::string& name) {
  if (object_ptr cached = context.store.get(type, namespace_, name)) {
    return link_json(context, *cached);
  }
  return link_json(context, type, kueue_api_version(context, type), namespace_, name);
}

bool list_complete(const view_context& context, const kind_key& type) {
  return context.store.completeness(type).complete();
}

const packed_value* condition_of(const packed_value& object, std::string_view type) {
  return find_condition(array_or_empty(object, {"status", "conditions"}), type);
}

std::optional<time_point> transition_time(const packed_value* condition) {
  if (condition == nullptr) {
    return std::nullopt;
  }
  return parse_rfc3339(string_or(*condition, {"lastTransitionTime"}));
}

std::optional<time_point> created_at(const packed_value& object) {
  return parse_rfc3339(string_or(object, {"metadata", "creationTimestamp"}));
}

json conditions_json(const packed_value& object) {
  json out = json::array();
  for (const packed_value& condition : array_or_empty(object, {"status", "conditions"})) {
    out.push_back({{"type", string_or(condition, {"type"})},
                   {"status", string_or(condition, {"status"})},
                   {"reason", string_or(condition, {"reason"})},
                   {"message", string_or(condition, {"message"})},
                   {"lastTransitionTime", get_string(condition, {"lastTransitionTime"})
                                              ? json(string_or(condition, {"lastTransitionTime"}))
                                              : json(nullptr)}});
  }
  return out;
}

void note_wrong_types(const packed_value& body, std::initializer_list<expected_field> fields, details_view& view) {
  for (const expected_field& field : fields) {
    const packed_value* at = &body;
    std::string_view rest = field.path;
    while (at != nullptr && !rest.empty()) {
      std::size_t dot = rest.find('.');
      at = find(*at, {rest.substr(0, dot)});
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    if (at == nullptr || at->is_null()) {
      continue;
    }
    const char* expected = nullptr;
    switch (field.type) {
      case field_type::string:
        expected = at->is_string() ? nullptr : "a string";
        break;
      case field_type::integer:
        expected = at->is_number_integer() ? nullptr : "an integer";
        break;
      case field_type::boolean:
        expected = at->is_boolean() ? nullptr : "true or false";
        break;
      case field_type::array:
        expected = at->is_array() ? nullptr : "a list";
        break;
      case field_type::object:
        expected = at->is_object() ? nullptr : "an object";
        break;
    }
    if (expected != nullptr) {
      view.note(std::string(field.path) + " is not " + expected + "; it is left out.");
    }
  }
}

}  // namespace sextant::kueue
