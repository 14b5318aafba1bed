#include "sections/dra/claim_reading.hpp"

namespace sextant::dra {
namespace {

bool condition_named_true(const packed_value& conditions, const std::string& type) {
  return condition_true(find_condition(conditions, type));
}

// Whether a result is for admin access. Kubernetes 1.32 on writes it on the result; 1.31
// (v1alpha3) wrote it only on the request the result names, so a result without the field is
// read through its request, as that version meant it.
bool admin_access_of(const packed_value& claim, const packed_value& result) {
  if (auto written = get_bool(result, {"adminAccess"})) {
    return *written;
  }
  const std::string request = split_request(string_or(result, {"request"})).first;
  for (const packed_value& entry : array_or_empty(claim, {"spec", "devices", "requests"})) {
    if (string_or(entry, {"name"}) == request) {
      return get_bool(entry, {"adminAccess"}).value_or(get_bool(entry, {"exactly", "adminAccess"}).value_or(false));
    }
  }
  return false;
}

}  // namespace

const packed_value* claim_allocation(const packed_value& claim) {
  const packed_value* allocation = find(claim, {"status", "allocation"});
  return allocation != nullptr && allocation->is_object() ? allocation : nullptr;
}

std::vector<allocated_device> allocated_devices(const packed_value& claim) {
  std::vector<allocated_device> out;
  const packed_value* allocation = claim_allocation(claim);
  if (allocation == nullptr) {
    return out;
  }
  for (const packed_value& result : array_or_empty(*allocation, {"devices", "results"})) {
    if (!result.is_object()) {
      continue;
    }
    out.push_back(allocated_device{string_or(result, {"request"}), string_or(result, {"driver"}),
                                   string_or(result, {"pool"}), string_or(result, {"device"}),
                                   string_or(result, {"shareID"}), admin_access_of(claim, result), &result});
  }
  return out;
}

const packed_value* device_status(const packed_value& claim, const allocated_device& device) {
  for (const packed_value& status : array_or_empty(claim, {"status", "devices"})) {
    if (string_or(status, {"driver"}) == device.driver && string_or(status, {"pool"}) == device.pool &&
        string_or(status, {"device"}) == device.device && string_or(status, {"shareID"}) == device.share_id) {
      return &status;
    }
  }
  return nullptr;
}

binding_state device_binding_state(const packed_value& claim, const allocated_device& device) {
  const packed_value& wanted = array_or_empty(*device.result, {"bindingConditions"});
  const packed_value& failures = array_or_empty(*device.result, {"bindingFailureConditions"});
  if (wanted.empty() && failures.empty()) {
    return binding_state::none;
  }
  const packed_value* status = device_status(claim, device);
  // No status entry from the driver yet: not ready (the scheduler reads it the same way).
  if (status == nullptr) {
    return binding_state::waiting;
  }
  const packed_value& conditions = array_or_empty(*status, {"conditions"});
  for (const packed_value& type : failures) {
    if (type.is_string() && condition_named_true(conditions, type.get<std::string>())) {
      return binding_state::failed;
    }
  }
  for (const packed_value& type : wanted) {
    if (!type.is_string() || !condition_named_true(conditions, type.get<std::string>())) {
      return binding_state::waiting;
    }
  }
  return binding_state::ready;
}

std::optional<binding_failure> find_binding_failure(const packed_value& claim) {
  for (const allocated_device& device : allocated_devices(claim)) {
    const packed_value* status = device_status(claim, device);
    if (status == nullptr) {
      continue;
    }
    const packed_value& conditions = array_or_empty(*status, {"conditions"});
    for (const packed_value& type : array_or_empty(*device.result, {"bindingFailureConditions"})) {
      if (!type.is_string()) {
        continue;
      }
      const packed_value* condition = find_condition(conditions, type.get<std::string>());
      if (condition_true(condition)) {
        return binding_failure{device, type.get<std::string>(), string_or(*condition, {"reason"}),
                               string_or(*condition, {"message"})};
      }
    }
  }
  return std::nullopt;
}

std::vector<claim_consumer> reserved_for(const packed_value& claim) {
  std::vector<claim_consumer> out;
  for (const packed_value& entry : array_or_empty(claim, {"status", "reservedFor"})) {
    if (!entry.is_object()) {
      continue;
    }
    out.push_back(claim_consumer{string_or(entry, {"apiGroup"}), string_or(entry, {"resource"}),
                                 string_or(entry, {"name"}), string_or(entry, {"uid"})});
  }
  return out;
}

std::pair<std::string, std::string> split_request(const std::string& request) {
  auto slash = request.find('/');
  if (slash == std::string::npos) {
    return {request, ""};
  }
  return {request.substr(0, slash), request.substr(slash + 1)};
}

}  // namespace sextant::dra
