#include "store/namespace_source.hpp"

#include <algorithm>
#include <string_view>

namespace sextant {
namespace {

bool is_dns_label(std::string_view name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') {
    return false;
  }
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace

std::optional<std::set<std::string>> namespaces_named(const object_store& store, const namespace_source& source) {
  if (!store.completeness(source.type).complete()) {
    return std::nullopt;
  }
  std::set<std::string> out;
  for (const object_ptr& object : store.list(source.type)) {
    const packed_value* at = &object->body();
    for (const std::string& step : source.field) {
      at = &(*at)[step];
    }
    if (at->is_string() && is_dns_label(at->string_view())) {
      out.emplace(at->string_view());
    }
  }
  return out;
}

}  // namespace sextant
