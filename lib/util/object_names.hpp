#pragma once
// What the API server accepts as a namespace, an object name and a label, so that every route
// answers a name no object can have with 400, never echoing it back at any length. Written as
// linear scans, not regular expressions: these run on callers' text and snapshot files.
#include <string_view>

namespace sextant {

// An RFC 1123 label: lower-case alphanumerics and '-', at most 63 characters.
bool valid_namespace(std::string_view text);
// 1 to 253 characters, no '/' and no control characters (the kinds differ beyond that).
bool valid_name(std::string_view text);
// The most any kind's name may be (the API server's path-segment rule, which RBAC kinds use;
// most kinds ask for a DNS subdomain): a valid_name that is not "." or ".." and holds no '%'.
// A name outside it cannot be in a cluster, and no route would find it by its path.
bool name_the_api_server_accepts(std::string_view text);
// A label key: an optional DNS subdomain prefix (at most 253) and '/', then a name of at most
// 63 alphanumerics, '-', '_' and '.', beginning and ending alphanumeric.
bool valid_label_key(std::string_view text);
// A label value: empty, or as a key's name part.
bool valid_label_value(std::string_view text);

}  // namespace sextant
