#include "util/object_names.hpp"

#include <algorithm>

namespace sextant {
namespace {

bool lower_alphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool alphanumeric(char c) {
  return lower_alphanumeric(c) || (c >= 'A' && c <= 'Z');
}

// Non-empty, begins and ends with an accepted end character, and every character between is
// either one of those or one of `inner`.
template <typename End>
bool framed(std::string_view text, End end_ok, std::string_view inner) {
  if (text.empty() || !end_ok(text.front()) || !end_ok(text.back())) {
    return false;
  }
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return end_ok(c) || inner.find(c) != std::string_view::npos; });
}

// An RFC 1123 subdomain as the API server checks it: lower-case alphanumerics, '-' and '.',
// beginning and ending alphanumeric, at most 253 characters.
bool dns_subdomain(std::string_view text) {
  return text.size() <= 253 && framed(text, lower_alphanumeric, "-.");
}

}  // namespace

bool valid_namespace(std::string_view text) {
  return text.size() <= 63 && framed(text, lower_alphanumeric, "-");
}

bool valid_name(std::string_view text) {
  if (text.empty() || text.size() > 253) {
    return false;
  }
  return std::none_of(text.begin(), text.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == '/' || c == 0x7f; });
}

bool name_the_api_server_accepts(std::string_view text) {
  return valid_name(text) && text != "." && text != ".." && text.find('%') == std::string_view::npos;
}

bool valid_label_key(std::string_view text) {
  std::string_view name = text;
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    if (!dns_subdomain(text.substr(0, slash))) {
      return false;
    }
    name = text.substr(slash + 1);
  }
  return !name.empty() && valid_label_value(name);
}

bool valid_label_value(std::string_view text) {
  return text.empty() || (text.size() <= 63 && framed(text, alphanumeric, "-_."));
}

}  // namespace sextant
