// Names, namespaces and labels come from callers' URLs and queries and from snapshot files; Go's
// %q comes back in scheduler messages. The linear readers that replaced std::regex must agree
// with the patterns they replaced (checked here against std::regex on short input, where its
// recursion is harmless) and never crash on any input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>

#include "snapshot/yaml_to_json.hpp"
#include "util/go_quoted.hpp"
#include "util/object_names.hpp"

namespace {

bool matches(const std::string& text, const std::regex& pattern) {
  return std::regex_match(text, pattern);
}

const std::regex namespace_pattern(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)");
const std::regex value_pattern(R"(^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$)");
const std::regex key_pattern(R"(^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$)");
const std::regex float_pattern(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const bool name_ok = sextant::valid_name(text);
  const bool accepted = sextant::name_the_api_server_accepts(text);
  if (accepted && !name_ok) {
    std::abort();
  }
  (void)sextant::go_unquoted(text);
  if (size > 400) {
    (void)sextant::valid_namespace(text);
    (void)sextant::valid_label_key(text);
    (void)sextant::valid_label_value(text);
    (void)sextant::yaml_core_float(text);
    return 0;
  }
  const bool ns = text.size() <= 63 && matches(text, namespace_pattern);
  if (sextant::valid_namespace(text) != ns) {
    std::abort();
  }
  const bool value = text.size() <= 63 && matches(text, value_pattern);
  if (sextant::valid_label_value(text) != value) {
    std::abort();
  }
  // The key's name part is at most 63 and its prefix a subdomain of at most 253 (the old
  // pattern only bounded the whole key).
  const auto slash = text.find('/');
  const std::string prefix = slash == std::string::npos ? "" : text.substr(0, slash);
  const std::string name = slash == std::string::npos ? text : text.substr(slash + 1);
  const bool key = prefix.size() <= 253 && name.size() <= 63 && matches(text, key_pattern);
  if (sextant::valid_label_key(text) != key) {
    std::abort();
  }
  const bool number = matches(text, float_pattern);
  if (sextant::yaml_core_float(text) != number) {
    std::abort();
  }
  return 0;
}
