#pragma once
// Percent-decoding (RFC 3986), for request targets and URLs alike.
#include <optional>
#include <string>
#include <string_view>

namespace sextant {

enum class malformed_escape {
  reject,  // the text is bad input: a request target
  keep,    // the text is read as it is: a URL's user info, where a stray '%' is just a character
};

// Decodes %XX escapes, and '+' as a space where `plus_is_space` (query strings). A malformed
// escape ('%' not followed by two hex digits) makes it nullopt, or is kept as written.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space = false,
                                          malformed_escape malformed = malformed_escape::reject);

}  // namespace sextant
