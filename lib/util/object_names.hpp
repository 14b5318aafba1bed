#pragma once
// What the API server accepts as a namespace and an object name, so that every route answers a
// name no object can have with 400, never echoing it back at any length.
#include <string>

namespace sextant {

// An RFC 1123 label: lower-case alphanumerics and '-', at most 63 characters.
bool valid_namespace(const std::string& text);
// 1 to 253 characters, no '/' and no control characters (the kinds differ beyond that).
bool valid_name(const std::string& text);

}  // namespace sextant
