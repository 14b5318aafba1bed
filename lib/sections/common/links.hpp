#pragma once
// Links between objects, as details answers and blocks write them.
//
// A link names the apiVersion the daemon reads: a cached object's own, else the version the
// kind's section prefers among those the cluster serves (view_context::api_version), so a link
// never names a version other than the one watched.
//
// Every link says whether its object is there, by the one rule of lists.hpp (`exists`: true,
// false, or "cannot tell"), so a front-end can tell a link whose path answers 404 because the
// object is absent from one it may follow. A section that knows more (the operator's own status
// says the object is missing) overwrites it.
#include <string>
#include <string_view>

#include "sections/view_context.hpp"
#include "store/object.hpp"

namespace sextant {

// {apiVersion, kind, namespace, name, path, exists}: a details answer's link without its rel.
json link_json(const view_context& context, const kind_key& type, std::string_view api_version,
               std::string_view namespace_, std::string_view name);
json link_json(const view_context& context, const cached_object& object);
// A link to an object by name: the cached one's version when it is there, else the version read.
json link_to(const view_context& context, const kind_key& type, std::string_view namespace_, std::string_view name);

}  // namespace sextant
