#pragma once
// What every object carries in its metadata, read the same way in every section.
#include "sections/section.hpp"

namespace sextant {

// Whether metadata.deletionTimestamp is set: the object is being deleted (finalizers hold it).
bool being_deleted(const packed_value& object);

// Whether one of the object's ownerReferences has this uid.
bool owned_by_uid(const packed_value& object, std::string_view uid);

// A link (rel "owner") to each of metadata.ownerReferences, in the object's namespace.
void link_owners(const cached_object& object, const view_context& context, details_view& view);

}  // namespace sextant
