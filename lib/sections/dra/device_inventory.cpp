#include "sections/dra/device_inventory.hpp"

#include <algorithm>

#include "sections/common/lists.hpp"
#include "sections/dra/claim_reading.hpp"
#include "sections/dra/dra_section.hpp"

namespace sextant::dra {

slice_window read_slice_window(const view_context& context) {
  slice_window window;
  std::vector<object_ptr> all = context.store.list(slice_kind);
  window.incomplete_reason = incomplete_reason(context, slice_kind, slice_cap, "Resource Slices");
  window.incomplete = !window.incomplete_reason.empty();
  if (all.size() > slice_cap) {
    all.resize(slice_cap);
  }
  window.slices.reserve(all.size());
  for (object_ptr& object : all) {
    slice_info info = read_slice(object->body());
    window.slices.push_back(read_slice_entry{std::move(object), std::move(info)});
  }
  return window;
}

pool_status pool_of(const view_context& context, const std::string& driver, const std::string& pool) {
  pool_status status;
  bool seen = false;
  for (const object_ptr& slice : context.store.list(slice_kind)) {
    const packed_value& spec = member(slice->body(), "spec");
    if (string_or(spec, {"driver"}) != driver || string_or(spec, {"pool", "name"}) != pool) {
      continue;
    }
    std::int64_t generation = get_int(spec, {"pool", "generation"}).value_or(0);
    std::optional<std::int64_t> count = get_int(spec, {"pool", "resourceSliceCount"});
    if (!seen || generation > status.newest_generation) {
      status = pool_status{generation, 1, count};
      seen = true;
    } else if (generation == status.newest_generation) {
      ++status.slices_seen;
      if (!status.slice_count) {
        status.slice_count = count;
      }
    }
  }
  return status;
}

pool_index::pool_index(const std::vector<read_slice_entry>& slices) {
  for (const read_slice_entry& entry : slices) {
    const slice_info& slice = entry.info;
    std::int64_t generation = slice.generation.value_or(0);
    auto [it, inserted] = pools_.try_emplace({slice.driver, slice.pool});
    pool_status& status = it->second;
    if (inserted || generation > status.newest_generation) {
      status = pool_status{generation, 1, slice.slice_count};
    } else if (generation == status.newest_generation) {
      ++status.slices_seen;
      if (!status.slice_count) {
        status.slice_count = slice.slice_count;
      }
    }
  }
}

const pool_status* pool_index::find(const std::string& driver, const std::string& pool) const {
  auto it = pools_.find({driver, pool});
  return it == pools_.end() ? nullptr : &it->second;
}

bool pool_index::current(const slice_info& slice) const {
  const pool_status* status = find(slice.driver, slice.pool);
  return status == nullptr || slice.generation.value_or(0) >= status->newest_generation;
}

allocation_index::allocation_index(const view_context& context) {
  claims_reason_ = incomplete_reason(context, claim_kind);
  claims_complete_ = claims_reason_.empty();
  for (const object_ptr& claim : context.store.list(claim_kind)) {
    for (const allocated_device& device : allocated_devices(claim->body())) {
      auto& index = device.admin_access ? admin_access_ : holders_;
      index[{device.driver, device.pool, device.device}].push_back(
          claim_holder{std::string(claim->namespace_), std::string(claim->name),
                       context.path_json(claim_kind, claim->namespace_, claim->name)});
    }
  }
}

json allocation_index::allocated_to(const std::string& driver, const std::string& pool,
                                    const std::string& device) const {
  const std::vector<claim_holder>& seen = holders(driver, pool, device);
  if (!seen.empty()) {
    return seen.front().to_json();
  }
  return claims_complete_ ? json(nullptr) : json("cannot tell");
}

const std::vector<claim_holder>& allocation_index::claims_at(
    const std::map<device_key, std::vector<claim_holder>>& index, const device_key& key) {
  static const std::vector<claim_holder> none;
  auto it = index.find(key);
  return it == index.end() ? none : it->second;
}

const std::vector<claim_holder>& allocation_index::holders(const std::string& driver, const std::string& pool,
                                                           const std::string& device) const {
  return claims_at(holders_, {driver, pool, device});
}

const std::vector<claim_holder>& allocation_index::admin_access(const std::string& driver, const std::string& pool,
                                                                const std::string& device) const {
  return claims_at(admin_access_, {driver, pool, device});
}

json device_row(const slice_info& info, std::string_view slice_name, const published_device& device, bool pool_complete,
                const allocation_index& allocations, const view_context& context) {
  json row = {{"driver", info.driver},
              {"pool", info.pool},
              {"poolGeneration", or_null(info.generation)},
              {"poolComplete", pool_complete},
              {"node", or_null(device.node)},
              {"nodeSelector", or_null(device.node_selector)},
              {"allNodes", device.all_nodes},
              {"device", device.name},
              {"attributes", device.attributes},
              {"capacity", device.capacity},
              {"taints", device.taints},
              {"allocatedTo", allocations.allocated_to(info.driver, info.pool, device.name)},
              {"slice", {{"name", slice_name}, {"path", context.path_json(slice_kind, "", slice_name)}}}};
  const std::vector<claim_holder>& holders = allocations.holders(info.driver, info.pool, device.name);
  // A shared device (allowMultipleAllocations, admin access) can be held by several claims.
  json others = json::array();
  for (std::size_t i = 1; i < holders.size(); ++i) {
    others.push_back(holders[i].to_json());
  }
  row["alsoAllocatedTo"] = std::move(others);
  json admins = json::array();
  for (const claim_holder& claim : allocations.admin_access(info.driver, info.pool, device.name)) {
    admins.push_back(claim.to_json());
  }
  row["adminAccessBy"] = std::move(admins);
  return row;
}

json sorted_rows(std::vector<json> rows) {
  auto key = [](const json& row) {
    return std::make_tuple(string_or(row, {"driver"}), string_or(row, {"pool"}), string_or(row, {"device"}));
  };
  std::stable_sort(rows.begin(), rows.end(), [&key](const json& a, const json& b) { return key(a) < key(b); });
  json out = json::array();
  for (json& row : rows) {
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace sextant::dra
