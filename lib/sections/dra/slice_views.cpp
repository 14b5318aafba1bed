// Resource Slices: the devices one driver publishes for a pool, and where the slice stands in
// its pool (the newest generation counts; older ones are being replaced).
#include "sections/dra/device_inventory.hpp"
#include "sections/dra/dra_section.hpp"

namespace sextant::dra {

object_state slice_state(const cached_object& slice, const view_context& context) {
  const packed_value& spec = member(slice.body(), "spec");
  std::string driver = string_or(spec, {"driver"});
  std::string pool = string_or(spec, {"pool", "name"});
  std::int64_t generation = get_int(spec, {"pool", "generation"}).value_or(0);
  pool_status status = pool_of(context, driver, pool);
  std::size_t devices = array_or_empty(spec, {"devices"}).size();
  std::string published = std::to_string(devices) + (devices == 1 ? " device" : " devices");
  if (generation < status.newest_generation) {
    return {"Outdated", "OldGeneration",
            "Generation " + std::to_string(generation) + " of pool " + pool + "; generation " +
                std::to_string(status.newest_generation) + " replaces it, so its devices are not used."};
  }
  if (!status.complete()) {
    return {"Incomplete pool", "PoolIncomplete",
            "Pool " + pool + " has " + std::to_string(status.slices_seen) + " of " +
                std::to_string(status.slice_count.value_or(0)) + " slices of generation " + std::to_string(generation) +
                "; " + published + " here."};
  }
  return {"Current", "", "Publishes " + published + " of driver " + driver + " in pool " + pool + "."};
}

void slice_summary(const cached_object& slice, const view_context&, json& summary) {
  slice_info info = read_slice(slice.body());
  summary["driver"] = info.driver;
  summary["pool"] = info.pool;
  summary["node"] = or_null(info.node_name);
  summary["deviceCount"] = info.devices.size();
}

void slice_details(const cached_object& slice, const view_context& context, details_view& view) {
  slice_info info = read_slice(slice.body());
  pool_status pool = pool_of(context, info.driver, info.pool);
  view.blocks["poolStatus"] = {{"name", info.pool},
                               {"generation", or_null(info.generation)},
                               {"resourceSliceCount", or_null(info.slice_count)},
                               {"newestGeneration", pool.newest_generation},
                               {"slicesOfNewestGeneration", pool.slices_seen},
                               {"complete", pool.complete()},
                               {"current", info.generation.value_or(0) >= pool.newest_generation}};
  view.blocks["nodeName"] = or_null(info.node_name);
  view.blocks["nodeSelector"] = or_null(info.node_selector);
  view.blocks["allNodes"] = info.all_nodes;
  view.blocks["perDeviceNodeSelection"] = info.per_device_node_selection;
  view.blocks["availableOn"] = node_scope_text(info.node_name, info.node_selector, info.all_nodes);
  if (!info.node_name.empty()) {
    view.link(context, "node", "v1", "Node", "", info.node_name);
  }
  // Rows come through the same index as the Devices page, so both say who holds a device.
  allocation_index allocations(context);
  json devices = json::array();
  for (const published_device& device : info.devices) {
    devices.push_back(device_row(info, slice.name, device, pool.complete(), allocations, context));
  }
  view.blocks["devices"] = std::move(devices);
  view.blocks["sharedCounters"] = info.shared_counters;
  if (info.generation.value_or(0) < pool.newest_generation) {
    view.note("This slice is of an older generation of its pool; consumers use only generation " +
              std::to_string(pool.newest_generation) + ".");
  }
  if (!pool.complete()) {
    view.note("Pool " + info.pool + " is incomplete: " + std::to_string(pool.slices_seen) + " of " +
              std::to_string(pool.slice_count.value_or(0)) + " slices of its newest generation are visible.");
  }
  if (!allocations.claims_complete()) {
    view.note("Which claim holds a device cannot be told for every device: " + allocations.claims_reason() + ".");
  }
  for (const std::string& sentence : info.notes.sentences) {
    view.note(sentence);
  }
}

}  // namespace sextant::dra
