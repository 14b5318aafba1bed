#pragma once
// URIs without credentials (section 5 of README.md): what the views show of a storage URI, a
// status URL or a URI quoted inside an operator's message. User name, password, query and
// fragment go (a pre-signed URL's signature lives in its query); scheme, host, port and path
// stay. The YAML view is the one place that shows an object as stored.
#include <string>
#include <string_view>

namespace sextant::masking {

struct stripped {
  std::string text;
  bool removed = false;  // something was dropped: say `removed_note` beside the text
};

// One URI, as a field holds it ("s3://bucket/key", "https://user:pw@host/p?X-Amz-Signature=...").
// Drops the user info (up to the authority's last '@'), the query and the fragment, and a port
// that is not digits (a password written without percent-encoding). Every "//" in the path starts
// an authority again, so a URI nested in a path loses its credentials too. Linear; never throws.
stripped strip_uri(std::string_view uri);

// Free text (a condition message, a failure message, a command line): every URI in it is found
// by its shape, `scheme://…@host`, whatever characters its user info holds (people paste
// passwords with `^ | { } \ < > "` and backticks unencoded), and stripped as `strip_uri` does;
// a word `user:password@host` without a scheme loses its user info too. A URI ends at a space, or
// at the quote or bracket that opened just before it; sentence punctuation after it stays with
// the text. The rest of the text stays as it is. Linear.
stripped strip_uris_in_text(std::string_view text);

inline constexpr std::string_view removed_note = "credentials and query hidden";

}  // namespace sextant::masking
