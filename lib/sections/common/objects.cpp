#include "sections/common/objects.hpp"

namespace sextant {

bool being_deleted(const packed_value& object) {
  return find(object, {"metadata", "deletionTimestamp"}) != nullptr;
}

bool owned_by_uid(const packed_value& object, std::string_view uid) {
  for (const packed_value& owner : array_or_empty(object, {"metadata", "ownerReferences"})) {
    if (string_or(owner, {"uid"}) == uid) {
      return true;
    }
  }
  return false;
}

void link_owners(const cached_object& object, const view_context& context, details_view& view) {
  for (const packed_value& owner : array_or_empty(object.body(), {"metadata", "ownerReferences"})) {
    view.link(context, "owner", string_or(owner, {"apiVersion"}), string_or(owner, {"kind"}), object.namespace_,
              string_or(owner, {"name"}));
  }
}

}  // namespace sextant
