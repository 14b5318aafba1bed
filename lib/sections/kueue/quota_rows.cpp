#include "sections/kueue/quota_rows.hpp"

#include "util/quantity.hpp"

namespace sextant::kueue {

json quantity_or_null(const packed_value* value) {
  if (value == nullptr || value->is_null()) {
    return nullptr;
  }
  std::string text = quantity_text(*value);
  return value->is_string() || !text.empty() ? json(text) : json(value->dump());
}

json quota_rows(const packed_value& object, bool shares_quota) {
  json rows = json::array();
  auto limit = [shares_quota](const packed_value& resource, const char* field) -> json {
    if (const packed_value* value = find(resource, {field}); value != nullptr && !value->is_null()) {
      return quantity_or_null(value);
    }
    return shares_quota ? json(no_limit) : json(nullptr);
  };
  for (const packed_value& group : array_or_empty(object, {"spec", "resourceGroups"})) {
    for (const packed_value& flavor : array_or_empty(group, {"flavors"})) {
      for (const packed_value& resource : array_or_empty(flavor, {"resources"})) {
        rows.push_back({{"flavor", string_or(flavor, {"name"})},
                        {"resource", string_or(resource, {"name"})},
                        {"nominal", quantity_or_null(find(resource, {"nominalQuota"}))},
                        {"borrowingLimit", limit(resource, "borrowingLimit")},
                        {"lendingLimit", limit(resource, "lendingLimit")}});
      }
    }
  }
  return rows;
}

}  // namespace sextant::kueue
