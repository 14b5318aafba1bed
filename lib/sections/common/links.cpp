#include "sections/common/links.hpp"

#include "sections/common/lists.hpp"

namespace sextant {
namespace {

json link_fields(const view_context& context, const kind_key& type, std::string_view api_version,
                 std::string_view namespace_, std::string_view name, json exists) {
  return json{{"apiVersion", api_version},
              {"kind", type.kind},
              {"namespace", or_null(namespace_)},
              {"name", name},
              {"path", context.path_json(type, namespace_, name)},
              {"exists", std::move(exists)}};
}

}  // namespace

json link_json(const view_context& context, const kind_key& type, std::string_view api_version,
               std::string_view namespace_, std::string_view name) {
  const bool cached = context.store.get(type, namespace_, name) != nullptr;
  return link_fields(context, type, api_version, namespace_, name, exists_json(cached, context, type));
}

json link_json(const view_context& context, const cached_object& object) {
  return link_fields(context, object.type, object.api_version, object.namespace_, object.name, true);
}

json link_to(const view_context& context, const kind_key& type, std::string_view namespace_, std::string_view name) {
  if (object_ptr cached = context.store.get(type, namespace_, name)) {
    return link_json(context, *cached);
  }
  return link_fields(context, type, context.api_version(type), namespace_, name, exists_json(false, context, type));
}

}  // namespace sextant
