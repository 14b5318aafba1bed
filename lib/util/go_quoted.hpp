#pragma once
// Go's %q, read back: controllers and the scheduler quote names and messages with it, so a
// message can hold `message="port \"nvl3\" is down"`. Reads the escapes strconv.Quote writes.
#include <string>
#include <string_view>

namespace sextant {

// The text between the quotes with its escapes undone: \" \\ \n \t \r \a \b \f \v, \xHH,
// \uHHHH and \UHHHHHHHH (as UTF-8), \ooo. An escape it cannot read is kept as written.
std::string go_unquoted(std::string_view quoted_body);

}  // namespace sextant
