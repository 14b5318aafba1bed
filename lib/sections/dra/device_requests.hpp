#pragma once
// A claim's device requests, constraints and configuration as written, read from any version:
// v1alpha3/v1beta1 keep deviceClassName, selectors, allocationMode and count on the request;
// v1beta2/v1 put them under `exactly`. `firstAvailable` alternatives keep their order.
#include <string>
#include <vector>

#include "sections/dra/field_text.hpp"
#include "store/packed_value.hpp"

namespace sextant::dra {

// {requests[], constraints[], config[]} of a ResourceClaimSpec (`spec` of a claim, `spec.spec`
// of a template). Each request: {name, deviceClassName, selectors[], allocationMode, count,
// adminAccess, tolerations[], capacity{}, firstAvailable[], text}. Values are as written (null
// when absent); `text` says in words what the request asks, with the API server's defaults.
json read_claim_spec(const packed_value& spec, reading_notes& notes);

// One `config[]` entry: {requests[], driver, parameters (JSON text)} plus `source` when set.
json read_opaque_config(const packed_value& entry, reading_notes& notes, const std::string& owner);

// Every device class a claim spec names, in order, without repeats.
std::vector<std::string> device_classes_of(const packed_value& spec);

// Whether any request or alternative of a read spec has a CEL selector.
bool has_selectors(const json& read_spec);

}  // namespace sextant::dra
