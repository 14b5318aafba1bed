#pragma once
// Kubernetes conditions as every section reads and shows them.
//
// One JSON shape for every kind's `conditions` array: {type, status, reason, message,
// lastTransitionTime}, strings as written ("" when a condition leaves one out) but the message
// masked (masking::operator_text: operators quote URLs and log lines in it), and the time null
// when it has none. One rule for how long something has held: since_of.
#include <optional>
#include <string>
#include <string_view>

#include "sections/section.hpp"
#include "store/packed_value.hpp"
#include "util/time.hpp"

namespace sextant {

// The condition of `type` in an object's status.conditions, or nullptr.
const packed_value* condition_of(const packed_value& object, std::string_view type);

// A condition's fields; empty (or nullopt) for a null condition or a missing field.
std::string condition_status(const packed_value* condition);
std::string condition_reason(const packed_value* condition);
// The message as written, to read; what a view shows of it goes through masking::operator_text
// (the API does that for a state's message, conditions_json for a conditions block).
std::string condition_message(const packed_value* condition);
std::optional<time_point> transition_time(const packed_value* condition);

// A condition's message masked (masking::operator_text), as a view shows it: for a state or a
// sentence built from it, where operators quote URLs and log lines.
std::string masked_condition_message(const packed_value* condition);
// A state told by a condition: the label given, the condition's reason and its masked message.
object_state condition_state(std::string label, const packed_value* condition);

// metadata.creationTimestamp.
std::optional<time_point> created_at(const packed_value& object);

// Since when a condition holds: its lastTransitionTime, else the object's creation time (a
// condition without a time, or none yet, has held since the object exists as far as anyone can
// tell). Nullopt when neither is written.
std::optional<time_point> since_of(const packed_value* condition, const packed_value& object);

// The later of two times that may be unknown: either when only one is known.
std::optional<time_point> later_of(std::optional<time_point> a, std::optional<time_point> b);

// An RFC 3339 time, or null.
json time_or_null(const std::optional<time_point>& at);

// A `conditions` array in the one shape above.
json conditions_json(const packed_value& conditions);
// The object's status.conditions in that shape.
json status_conditions_json(const packed_value& object);

}  // namespace sextant
