#pragma once
// What a ResourceClaim's status says: the allocated devices, the driver's per-device status
// and binding conditions, and who the claim is reserved for. The status has the same shape in
// every version (v1alpha3 of 1.31 adds `controller` and `deallocationRequested`, read as notes).
#include <optional>
#include <string>
#include <vector>

#include "sections/common/objects.hpp"
#include "store/packed_value.hpp"

namespace sextant::dra {

struct allocated_device {
  std::string request;  // as written: "gpu", or "gpu/older-gpu" for a firstAvailable choice
  std::string driver;
  std::string pool;
  std::string device;
  std::string share_id;
  // Admin access (monitoring, diagnostics): the scheduler does not count such a device as
  // allocated, so the claim does not hold it (allocateddevices.go, foreachAllocatedDevice).
  bool admin_access = false;
  const packed_value* result = nullptr;  // the status.allocation.devices.results[] entry
};

// Where a device's binding conditions stand (KEP-5007). `none` when it has none.
enum class binding_state { none, waiting, ready, failed };

struct binding_failure {
  allocated_device device;
  std::string condition_type;
  std::string reason;
  std::string message;
};

struct claim_consumer {
  std::string api_group;
  std::string resource;
  std::string name;
  std::string uid;
};

// status.allocation when it is an object.
const packed_value* claim_allocation(const packed_value& claim);
std::vector<allocated_device> allocated_devices(const packed_value& claim);
// The driver's status.devices[] entry for an allocated device (matched on driver, pool,
// device and shareID), or nullptr.
const packed_value* device_status(const packed_value& claim, const allocated_device& device);
binding_state device_binding_state(const packed_value& claim, const allocated_device& device);
// The first allocated device whose driver set a bindingFailureConditions type to True.
std::optional<binding_failure> find_binding_failure(const packed_value& claim);
std::vector<claim_consumer> reserved_for(const packed_value& claim);

// "gpu/older-gpu" -> {"gpu", "older-gpu"}; "gpu" -> {"gpu", ""}.
std::pair<std::string, std::string> split_request(const std::string& request);

}  // namespace sextant::dra
