#include "sections/dra/dra_section.hpp"

#include "sections/core/core_section.hpp"

namespace sextant::dra {

section make_section() {
  section s;
  s.id = "dra";
  s.title = "Dynamic Resource Allocation";
  s.group = std::string(group);
  s.version_preference = {"v1", "v1beta2", "v1beta1", "v1alpha3"};

  resource_def claims = kind_resource("resourceclaims", "Resource Claims", claim_kind, scope::namespaced);
  claims.state = claim_state;
  claims.summarize = claim_summary;
  claims.details = claim_details;
  // The driver's opaque per-device `data` can be large and no view reads it.
  claims.profile =
      ingest_profile::keeping({"spec", "status.allocation", "status.reservedFor", "status.deallocationRequested",
                               "status.devices.driver", "status.devices.pool", "status.devices.device",
                               "status.devices.shareID", "status.devices.conditions", "status.devices.networkData"});
  claims.joins = {core::pod_kind};  // the pods a claim is reserved for, linked; "In use" read from them
  s.resources.push_back(std::move(claims));

  resource_def templates = kind_resource("resourceclaimtemplates", "Claim Templates", template_kind, scope::namespaced);
  templates.state = template_state;
  templates.summarize = template_summary;
  templates.details = template_details;
  templates.profile = ingest_profile::keeping({"spec"});
  templates.joins = {claim_kind, core::pod_kind};  // the claims made from it and their pods, linked
  s.resources.push_back(std::move(templates));

  resource_def classes = kind_resource("deviceclasses", "Device Classes", device_class_kind, scope::cluster);
  classes.state = device_class_state;
  classes.summarize = device_class_summary;
  classes.details = device_class_details;
  classes.profile = ingest_profile::keeping({"spec"});
  s.resources.push_back(std::move(classes));

  resource_def slices = kind_resource("resourceslices", "Resource Slices", slice_kind, scope::cluster);
  slices.state = slice_state;
  slices.summarize = slice_summary;
  slices.details = slice_details;
  // What the device views read; per-device capacity request policies and the counters a
  // device consumes stay with the slice's own YAML.
  slices.profile = ingest_profile::keeping(
      {"spec.driver", "spec.pool", "spec.nodeName", "spec.nodeSelector", "spec.allNodes", "spec.perDeviceNodeSelection",
       "spec.sharedCounters", "spec.devices.name", "spec.devices.basic", "spec.devices.attributes",
       "spec.devices.capacity", "spec.devices.nodeName", "spec.devices.nodeSelector", "spec.devices.allNodes",
       "spec.devices.taints", "spec.devices.bindsToNode", "spec.devices.bindingConditions",
       "spec.devices.bindingFailureConditions", "spec.devices.allowMultipleAllocations"});
  slices.cap = slice_cap;
  s.resources.push_back(std::move(slices));

  resource_def devices;
  devices.id = "devices";
  devices.title = "Devices";
  devices.type = kind_key{std::string(group), ""};
  devices.namespaced = false;
  devices.list_computed = list_devices;
  // Each row is a device a ResourceSlice publishes; the claims holding it are joined entries.
  devices.made_of = {slice_kind};
  s.resources.push_back(std::move(devices));

  s.categories.push_back(problem_category{std::string(problem_category_id), "Dynamic Resource Allocation", true});
  s.rules.push_back(
      problem_rule{std::string(problem_category_id), core::pod_kind, evaluate_pod, {claim_kind, device_class_kind}});
  // A pod's claims (and templates, classes) are linked entries.
  s.extensions.push_back(
      details_extension{core::pod_kind, extend_pod_details, {}, {claim_kind, template_kind, device_class_kind}});
  // What the pod extension and the problem rule read of a Pod, beyond core's own fields.
  s.reads.push_back(kind_reads{
      core::pod_kind,
      {"spec.resourceClaims", "spec.containers.name", "spec.containers.resources.claims", "spec.initContainers.name",
       "spec.initContainers.resources.claims", "status.resourceClaimStatuses", "status.extendedResourceClaimStatus"},
      {}});
  // A node's devices are its ResourceSlices' content; the claims holding them are linked entries.
  s.extensions.push_back(details_extension{core::node_kind, extend_node_details, {slice_kind}, {claim_kind}});
  return s;
}

}  // namespace sextant::dra
