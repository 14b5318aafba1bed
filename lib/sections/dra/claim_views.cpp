// Resource Claims: state, summary and details.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "sections/common/conditions.hpp"
#include "sections/common/links.hpp"
#include "sections/common/lists.hpp"
#include "sections/core/core_section.hpp"
#include "sections/core/pod_reading.hpp"
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/device_inventory.hpp"
#include "sections/dra/device_requests.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/dra/node_selector_text.hpp"
#include "sections/dra/pod_claims.hpp"
#include "sections/dra/scheduler_reasons.hpp"

namespace sextant::dra {
namespace {

std::string device_text(const allocated_device& device) {
  return device.driver + "/" + device.pool + "/" + device.device;
}

std::string consumer_text(const claim_consumer& consumer) {
  std::string what = consumer.resource == "pods" ? "pod" : consumer.resource;
  return what + " " + consumer.name;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

struct consumer_kind {
  std::string api_version;
  std::string kind;
  kind_key type;
  bool known = true;
};

// reservedFor names a resource, not a kind: pods (and 1.36 PodGroups) are known; anything else
// is looked up among the kinds the cluster serves.
consumer_kind kind_of(const claim_consumer& consumer, const view_context& context) {
  if (consumer.api_group.empty() && consumer.resource == "pods") {
    return {"v1", "Pod", {"", "Pod"}};
  }
  for (const served_kind& served : context.served.all()) {
    if (served.type.group == consumer.api_group && served.plural == consumer.resource) {
      return {context.api_version(served.type), served.type.kind, served.type};
    }
  }
  if (consumer.api_group == "scheduling.k8s.io" && consumer.resource == "podgroups") {
    return {"scheduling.k8s.io/v1alpha2", "PodGroup", {"scheduling.k8s.io", "PodGroup"}};
  }
  return {consumer.api_group.empty() ? "v1" : consumer.api_group,
          consumer.resource,
          {consumer.api_group, consumer.resource},
          false};
}

// true, false, or "cannot tell" when the consumer's kind is not cached in full.
json consumer_exists(const consumer_kind& kind, std::string_view namespace_, const claim_consumer& consumer,
                     const view_context& context) {
  if (!kind.known) {
    return std::string(cannot_tell);
  }
  object_ptr object = context.store.get(kind.type, namespace_, consumer.name);
  return exists_json(object && (consumer.uid.empty() || object->uid.empty() || object->uid == consumer.uid), context,
                     kind.type);
}

const char* binding_word(binding_state state) {
  switch (state) {
    case binding_state::none:
      return "none";
    case binding_state::waiting:
      return "waiting";
    case binding_state::ready:
      return "ready";
    case binding_state::failed:
      return "failed";
  }
  return "none";
}

// The newest-generation slice that publishes a device, if it is among the slices read.
const read_slice_entry* slice_of(const slice_window& slices, const pool_index& pools, const allocated_device& device) {
  for (const read_slice_entry& entry : slices.slices) {
    if (entry.info.driver != device.driver || entry.info.pool != device.pool || !pools.current(entry.info)) {
      continue;
    }
    for (const published_device& published : entry.info.devices) {
      if (published.name == device.device) {
        return &entry;
      }
    }
  }
  return nullptr;
}

json read_allocation(const cached_object& claim, const view_context& context, details_view& view,
                     reading_notes& notes) {
  const packed_value* allocation = claim_allocation(claim.body());
  if (allocation == nullptr) {
    if (const packed_value* written = find(claim.body(), {"status", "allocation"});
        written != nullptr && !written->is_null()) {
      notes.wrong_type("status.allocation", field_type::object);
    }
    return nullptr;
  }
  slice_window slices = read_slice_window(context);
  pool_index pools(slices.slices);
  json devices = json::array();
  for (const allocated_device& device : allocated_devices(claim.body())) {
    auto [main_request, sub_request] = split_request(device.request);
    const packed_value* status = device_status(claim.body(), device);
    const read_slice_entry* slice = slice_of(slices, pools, device);
    binding_state binding = device_binding_state(claim.body(), device);
    json binding_conditions = string_array(member(*device.result, "bindingConditions"));
    json entry = {
        {"request", device.request},
        {"mainRequest", main_request},
        {"subRequest", or_null(sub_request)},
        {"driver", device.driver},
        {"pool", device.pool},
        {"device", device.device},
        {"shareID", or_null(device.share_id)},
        {"adminAccess", device.admin_access},
        {"bindingConditions", binding_conditions},
        {"bindingFailureConditions", string_array(member(*device.result, "bindingFailureConditions"))},
        {"binding", binding_word(binding)},
        {"conditions", status == nullptr ? json::array() : conditions_json(array_or_empty(*status, {"conditions"}))},
        {"slice", slice == nullptr ? json(nullptr)
                                   : json{{"name", slice->object->name},
                                          {"path", context.path_json(slice_kind, "", slice->object->name)}}}};
    if (slice != nullptr) {
      view.link(context, "resourceSlice", *slice->object);
    }
    const packed_value& wanted = array_or_empty(*device.result, {"bindingConditions"});
    if (binding_conditions.size() != wanted.size()) {
      notes.wrong_type("An entry of device " + device_text(device) + "'s bindingConditions", field_type::string);
    }
    if (binding == binding_state::waiting) {
      std::vector<std::string> names;
      for (const auto& name : binding_conditions) {
        names.push_back(name.get<std::string>());
      }
      // A condition name that is not a string cannot be named, nor ever be reported.
      view.note("Device " + device_text(device) + " waits for its driver to report " +
                (names.empty() ? std::string("binding conditions that cannot be read (not strings)") : joined(names)) +
                " before the pod is bound.");
    }
    devices.push_back(std::move(entry));
  }
  if (devices.empty()) {
    notes.add("The allocation lists no devices.");
  }
  json out = {{"devices", std::move(devices)}, {"node", nullptr}, {"nodeSelector", nullptr}};
  const packed_value* selector = find(*allocation, {"nodeSelector"});
  if (selector == nullptr || selector->is_null()) {
    out["availableOnEveryNode"] = true;
  } else {
    out["availableOnEveryNode"] = false;
    if (auto node = pinned_node(*selector)) {
      out["node"] = *node;
      view.link(context, "node", "v1", "Node", "", *node);
    } else {
      out["nodeSelector"] = node_selector_text(*selector);
    }
  }
  out["allocationTimestamp"] = string_or_null(*allocation, {"allocationTimestamp"});
  json config = json::array();
  for (const packed_value& entry : array_or_empty(*allocation, {"devices", "config"})) {
    config.push_back(read_opaque_config(entry, notes, "the allocation"));
  }
  out["config"] = std::move(config);
  // Classic DRA (v1alpha3 of 1.31) named a controller that allocated the claim.
  if (auto controller = get_string(*allocation, {"controller"})) {
    out["controller"] = *controller;
  }
  return out;
}

json read_consumers(const cached_object& claim, const view_context& context, details_view& view) {
  json out = json::array();
  for (const claim_consumer& consumer : reserved_for(claim.body())) {
    consumer_kind kind = kind_of(consumer, context);
    json exists = consumer_exists(kind, claim.namespace_, consumer, context);
    json entry = {{"rel", "consumer"}};
    entry.update(link_json(context, kind.type, kind.api_version, claim.namespace_, consumer.name));
    entry["uid"] = or_null(consumer.uid);
    entry["exists"] = exists;
    out.push_back(std::move(entry));
    view.link(context, "consumer", kind.api_version, kind.kind, claim.namespace_, consumer.name);
    if (exists == json(false)) {
      view.note("The claim is reserved for " + consumer_text(consumer) +
                ", which no longer exists; the resource claim controller removes such reservations.");
    }
  }
  return out;
}

// A pod that references the claim, directly or through the claim its template made for it.
struct claim_user {
  object_ptr pod;
  std::string pod_claim;  // the pod's name for it (spec.resourceClaims[].name)
  bool reserved = false;  // the claim's reservedFor names the pod
};

bool reserved_for_pod(const std::vector<claim_consumer>& consumers, const cached_object& pod) {
  return std::any_of(consumers.begin(), consumers.end(), [&pod](const claim_consumer& consumer) {
    return consumer.api_group.empty() && consumer.resource == "pods" && consumer.name == pod.name &&
           (consumer.uid.empty() || pod.uid.empty() || consumer.uid == pod.uid);
  });
}

// Pods are resolved as the kubelet and scheduler resolve them (pod_claims), so a generated claim
// counts only for the pod whose status records it and that owns it.
std::vector<claim_user> pods_using(const cached_object& claim, const view_context& context) {
  std::vector<claim_user> out;
  const std::vector<claim_consumer> consumers = reserved_for(claim.body());
  for (const object_ptr& pod : context.store.list(core::pod_kind, claim.namespace_)) {
    for (const pod_claim& entry : pod_claims(*pod, context)) {
      if (entry.resolution == claim_resolution::found && entry.claim && entry.claim->name == claim.name) {
        out.push_back({pod, entry.name, reserved_for_pod(consumers, *pod)});
        break;
      }
    }
  }
  return out;
}

// The first DRA reason the scheduler gives for a waiting pod that uses the claim, with the pod.
struct waiting_pod_reason {
  object_ptr pod;
  dra_reason reason;
  std::string message;  // the scheduler's whole message
};
std::optional<waiting_pod_reason> scheduler_reason_for(const std::vector<claim_user>& users) {
  for (const claim_user& user : users) {
    const packed_value& body = user.pod->body();
    if (!core::waiting_for_scheduler(body) || core::scheduling_gated(body)) {
      continue;
    }
    const packed_value* condition = core::not_scheduled_condition(body);
    if (condition == nullptr) {
      continue;
    }
    std::string message = string_or(*condition, {"message"});
    scheduler_reading reading = recognise_scheduler_message(message);
    if (!reading.reasons.empty()) {
      return waiting_pod_reason{user.pod, reading.reasons.front(), message};
    }
  }
  return std::nullopt;
}

json read_pods(const std::vector<claim_user>& users, const view_context& context, details_view& view) {
  json out = json::array();
  for (const claim_user& user : users) {
    const cached_object& pod = *user.pod;
    out.push_back({{"namespace", pod.namespace_},
                   {"name", pod.name},
                   {"path", context.path_json(core::pod_kind, pod.namespace_, pod.name)},
                   {"podClaimName", user.pod_claim},
                   {"reserved", user.reserved},
                   {"phase", string_or_null(pod.body(), {"status", "phase"})}});
    view.link(context, "pod", "v1", "Pod", pod.namespace_, pod.name);
  }
  if (!context.store.completeness(core::pod_kind).complete()) {
    view.note("The pod list is not read in full: pods that use the claim may be missing from its list of pods.");
  }
  return out;
}

}  // namespace

object_state claim_state(const cached_object& claim, const view_context& context) {
  const packed_value& body = claim.body();
  const packed_value* allocation = claim_allocation(body);
  std::vector<claim_consumer> consumers = reserved_for(body);
  object_state state;
  if (being_deleted(body)) {
    state.label = "Deleting";
    state.reason = "Deleting";
    state.message = "Being deleted since " + string_or(body, {"metadata", "deletionTimestamp"}) + ".";
    if (allocation != nullptr) {
      state.message += " Its finalizer keeps it until the allocation is released.";
    }
    return state;
  }
  if (allocation != nullptr) {
    if (auto failure = find_binding_failure(body)) {
      state.label = "Binding failed";
      state.reason = failure->reason.empty() ? failure->condition_type : failure->reason;
      state.message = "The driver reported " + failure->condition_type + " on device " + device_text(failure->device) +
                      (failure->message.empty() ? "." : ": " + failure->message);
      return state;
    }
    std::vector<std::string> holders;
    for (const claim_consumer& consumer : consumers) {
      holders.push_back(consumer_text(consumer));
    }
    if (!consumers.empty()) {
      state.label = "In use";
      state.reason = "Reserved";
      state.message = "Reserved for " + joined(holders) + ".";
      return state;
    }
    state.label = "Allocated";
    state.reason = "Allocated";
    std::size_t count = allocated_devices(body).size();
    state.message = "Allocated " + std::to_string(count) + (count == 1 ? " device" : " devices");
    const packed_value* selector = find(*allocation, {"nodeSelector"});
    if (auto node = selector == nullptr ? std::nullopt : pinned_node(*selector)) {
      state.message += " on node " + *node;
    }
    state.message += "; no pod has reserved it yet.";
    return state;
  }
  state.label = "Pending";
  state.reason = "Unallocated";
  // The scheduler writes why on the pods, not on the claim: quote the pod it came from.
  if (auto waiting = scheduler_reason_for(pods_using(claim, context))) {
    state.message = "Nothing is allocated yet. Pod " + std::string(waiting->pod->name) +
                    " waits for it: " + waiting->reason.text + " The scheduler says: \"" + waiting->message + "\"";
    return state;
  }
  state.message = "Nothing is allocated yet: the scheduler allocates when a pod that uses the claim is scheduled.";
  return state;
}

void claim_summary(const cached_object& claim, const view_context&, json& summary) {
  const packed_value* allocation = claim_allocation(claim.body());
  json node = nullptr;
  if (allocation != nullptr) {
    if (const packed_value* selector = find(*allocation, {"nodeSelector"})) {
      if (auto pinned = pinned_node(*selector)) {
        node = *pinned;
      }
    }
  }
  summary["node"] = std::move(node);
  summary["deviceCount"] = allocated_devices(claim.body()).size();
  summary["consumerCount"] = reserved_for(claim.body()).size();
}

void claim_details(const cached_object& claim, const view_context& context, details_view& view) {
  reading_notes notes;
  json spec = read_claim_spec(member(claim.body(), "spec"), notes);
  bool selectors = has_selectors(spec);
  for (auto& [key, block] : spec.items()) {
    view.blocks[key] = std::move(block);
  }
  view.blocks["allocation"] = read_allocation(claim, context, view, notes);
  view.blocks["consumers"] = read_consumers(claim, context, view);
  // Every pod that uses the claim, reserved or not yet (a Pending pod is not in reservedFor).
  view.blocks["pods"] = read_pods(pods_using(claim, context), context, view);
  if (const packed_value* status = find(claim.body(), {"status"}); status != nullptr && !status->is_object()) {
    notes.wrong_type("status", field_type::object);
  }
  // A claim made from a template is owned by its pod and says which pod claim it serves.
  json generated = nullptr;
  for (const packed_value& owner : array_or_empty(claim.body(), {"metadata", "ownerReferences"})) {
    if (string_or(owner, {"kind"}) == "Pod" && get_bool(owner, {"controller"}).value_or(false)) {
      generated = {{"pod", string_or(owner, {"name"})},
                   {"podClaimName",
                    string_or_null(claim.body(), {"metadata", "annotations", "resource.kubernetes.io/pod-claim-name"})},
                   {"path", context.path_json({"", "Pod"}, claim.namespace_, string_or(owner, {"name"}))}};
      view.link(context, "owner", "v1", "Pod", claim.namespace_, string_or(owner, {"name"}));
    }
  }
  view.blocks["generatedFor"] = std::move(generated);
  for (const std::string& device_class : device_classes_of(member(claim.body(), "spec"))) {
    view.link(context, "deviceClass", context.api_version(device_class_kind), "DeviceClass", "", device_class);
  }
  if (get_bool(claim.body(), {"status", "deallocationRequested"}).value_or(false)) {
    view.note("Deallocation was requested (classic DRA of Kubernetes 1.31).");
  }
  if (selectors) {
    view.note(std::string(cel_note));
  }
  for (std::string& sentence : notes.sentences) {
    view.note(std::move(sentence));
  }
}

}  // namespace sextant::dra
