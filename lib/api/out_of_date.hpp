#pragma once
// What the views and /readyz say of a kind whose watch is broken (object_store::interrupted):
// the objects last read are still shown, and every answer built from them says since when they
// may be out of date and why. One wording for lists, details and /readyz.
#include <string>

#include "store/object_store.hpp"

namespace sextant {

// "may be out of date: its watch has failed since 2026-12-06T03:12:05Z (connection refused)";
// empty when the kind's watch is whole.
std::string out_of_date_reason(const object_store& store, const kind_key& type);

// `reason` with the out-of-date words of `type` appended ("; "-joined), for an answer's
// incompleteReason: an answer that may be out of date may also lack what was made meanwhile.
std::string with_out_of_date(std::string reason, const object_store& store, const kind_key& type);

}  // namespace sextant
