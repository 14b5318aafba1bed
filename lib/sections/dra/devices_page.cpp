// The Devices page: every device of the newest generation of every pool, from at most 500
// slices, with the claim that holds it.
#include "sections/common/lists.hpp"
#include "sections/dra/device_inventory.hpp"
#include "sections/dra/dra_section.hpp"

namespace sextant::dra {

computed_list list_devices(const view_context& context) {
  computed_list out;
  slice_window slices = read_slice_window(context);
  pool_index pools(slices.slices);
  allocation_index allocations(context);
  std::vector<json> rows;
  for (const read_slice_entry& entry : slices.slices) {
    if (!pools.current(entry.info)) {
      continue;  // an older generation: the driver is replacing it, consumers ignore it
    }
    const pool_status* pool = pools.find(entry.info.driver, entry.info.pool);
    bool complete = pool == nullptr || pool->complete();
    for (const published_device& device : entry.info.devices) {
      rows.push_back(device_row(entry.info, entry.object->name, device, complete, allocations, context));
    }
  }
  out.items = sorted_rows(std::move(rows));
  out.incomplete = slices.incomplete;
  // A claim list that is not complete leaves the items whole: their allocatedTo says "cannot tell".
  out.incomplete_reason = slices.incomplete_reason;
  return out;
}

void extend_node_details(const cached_object& node, const view_context& context, details_view& view) {
  if (!context.served.serves(slice_kind)) {
    return;
  }
  slice_window slices = read_slice_window(context);
  pool_index pools(slices.slices);
  allocation_index allocations(context);
  std::vector<json> devices;
  for (const read_slice_entry& entry : slices.slices) {
    if (!pools.current(entry.info)) {
      continue;
    }
    const pool_status* pool = pools.find(entry.info.driver, entry.info.pool);
    bool linked = false;
    for (const published_device& device : entry.info.devices) {
      if (device.node != node.name) {
        continue;
      }
      devices.push_back(device_row(entry.info, entry.object->name, device, pool == nullptr || pool->complete(),
                                   allocations, context));
      if (!linked) {
        view.link(context, "resourceSlice", *entry.object);
        linked = true;
      }
    }
  }
  view.blocks["draDevices"] = sorted_rows(std::move(devices));
  if (slices.incomplete) {
    view.note(may_be_incomplete("The DRA devices listed", slices.incomplete_reason));
  }
  if (!allocations.claims_complete()) {
    view.note("Which claim holds a DRA device cannot be told for every device: " + allocations.claims_reason() + ".");
  }
}

}  // namespace sextant::dra
