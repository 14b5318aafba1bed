#include "sections/common/links.hpp"

namespace sextant {

json link_json(const view_context& context, const kind_key& type, std::string_view api_version,
               std::string_view namespace_, std::string_view name) {
  return json{{"apiVersion", api_version},
              {"kind", type.kind},
              {"namespace", or_null(namespace_)},
              {"name", name},
              {"path", context.path_json(type, namespace_, name)}};
}

json link_json(const view_context& context, const cached_object& object) {
  return link_json(context, object.type, object.api_version, object.namespace_, object.name);
}

json link_to(const view_context& context, const kind_key& type, std::string_view namespace_, std::string_view name) {
  if (object_ptr cached = context.store.get(type, namespace_, name)) {
    return link_json(context, *cached);
  }
  return link_json(context, type, context.api_version(type), namespace_, name);
}

}  // namespace sextant
