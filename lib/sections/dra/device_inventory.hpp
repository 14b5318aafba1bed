#pragma once
// The devices the cluster publishes and who holds them: the slices read (at most 500), the
// newest generation of each pool, and an index of allocated devices from the claims.
//
// Only the newest generation of a pool counts (older slices are leftovers the driver is
// replacing); a pool with fewer slices of that generation than its resourceSliceCount is
// incomplete. When the claim list is not complete, a device no claim is seen holding is
// "cannot tell", never free.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sections/dra/slice_reading.hpp"
#include "sections/view_context.hpp"

namespace sextant::dra {

struct read_slice_entry {
  object_ptr object;
  slice_info info;
};

// The Resource Slices read for views: the first `slice_cap` by name.
struct slice_window {
  std::vector<read_slice_entry> slices;
  bool incomplete = false;
  std::string incomplete_reason;
};
slice_window read_slice_window(const view_context& context);

struct pool_status {
  std::int64_t newest_generation = 0;
  std::size_t slices_seen = 0;              // slices of the newest generation
  std::optional<std::int64_t> slice_count;  // resourceSliceCount of the newest generation
  bool complete() const { return !slice_count || static_cast<std::int64_t>(slices_seen) >= *slice_count; }
};

// The status of one pool over every cached slice, read cheaply (no devices): for a slice's
// own state, where building the whole window would be wasted.
pool_status pool_of(const view_context& context, const std::string& driver, const std::string& pool);

class pool_index {
 public:
  explicit pool_index(const std::vector<read_slice_entry>& slices);
  const pool_status* find(const std::string& driver, const std::string& pool) const;
  // Whether a slice belongs to its pool's newest generation.
  bool current(const slice_info& slice) const;

 private:
  std::map<std::pair<std::string, std::string>, pool_status> pools_;
};

struct claim_holder {
  std::string namespace_;
  std::string name;
  json path;
  json to_json() const { return json{{"namespace", namespace_}, {"name", name}, {"path", path}}; }
};

class allocation_index {
 public:
  explicit allocation_index(const view_context& context);
  // null when free, {namespace, name, path} when held, "cannot tell" when the claim list is
  // not complete and no claim is seen holding it.
  json allocated_to(const std::string& driver, const std::string& pool, const std::string& device) const;
  // Every claim seen holding a device (a shared device may have several).
  const std::vector<claim_holder>& holders(const std::string& driver, const std::string& pool,
                                           const std::string& device) const;
  // Claims with admin access to a device: they do not hold it (the scheduler still gives it to
  // others), so they are listed apart.
  const std::vector<claim_holder>& admin_access(const std::string& driver, const std::string& pool,
                                                const std::string& device) const;
  bool claims_complete() const { return claims_complete_; }
  const std::string& claims_reason() const { return claims_reason_; }

 private:
  using device_key = std::tuple<std::string, std::string, std::string>;
  static const std::vector<claim_holder>& claims_at(const std::map<device_key, std::vector<claim_holder>>& index,
                                                    const device_key& key);
  std::map<device_key, std::vector<claim_holder>> holders_;
  std::map<device_key, std::vector<claim_holder>> admin_access_;
  bool claims_complete_ = false;
  std::string claims_reason_;
};

// One device as the Devices page, node details and slice details show it.
// `pool_complete` is the completeness of the device's whole pool.
json device_row(const slice_info& slice, std::string_view slice_name, const published_device& device,
                bool pool_complete, const allocation_index& allocations, const view_context& context);

// Rows in the order every device list shows them: by driver, pool, then device.
json sorted_rows(std::vector<json> rows);

}  // namespace sextant::dra
