#include "store/object.hpp"

namespace sextant {

std::string_view group_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view{} : api_version.substr(0, slash);
}

std::string_view version_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
}

std::size_t cached_object::held_bytes() const {
  auto outside = [](const std::string& text) {
    // Short strings live inside the std::string itself (libstdc++ keeps up to 15 characters).
    return text.capacity() > 15 ? text.capacity() + 1 : 0;
  };
  return sizeof(cached_object) + packed.size() + outside(type.group) + outside(type.kind) + outside(api_version) +
         outside(namespace_) + outside(name) + outside(uid) + outside(resource_version);
}

object_ptr make_object(packed_body packed, time_point first_seen, std::string* error) {
  auto fail = [error](std::string message) -> object_ptr {
    if (error != nullptr) {
      *error = std::move(message);
    }
    return nullptr;
  };
  const packed_value& body = packed.root();
  if (!body.is_object()) {
    return fail("not a JSON object");
  }
  auto api_version = get_string(body, {"apiVersion"});
  auto kind = get_string(body, {"kind"});
  auto name = get_string(body, {"metadata", "name"});
  if (!api_version || api_version->empty()) {
    return fail("missing apiVersion");
  }
  if (!kind || kind->empty()) {
    return fail("missing kind");
  }
  if (!name || name->empty()) {
    return fail("missing metadata.name");
  }
  auto object = std::make_shared<cached_object>();
  object->type = kind_key{std::string(group_of(*api_version)), *kind};
  object->api_version = *api_version;
  object->namespace_ = string_or(body, {"metadata", "namespace"});
  object->name = *name;
  object->uid = string_or(body, {"metadata", "uid"});
  object->resource_version = string_or(body, {"metadata", "resourceVersion"});
  object->first_seen = first_seen;
  object->packed = std::move(packed);
  return object;
}

object_ptr make_object(const json& body, time_point first_seen, std::string* error) {
  return make_object(pack(body), first_seen, error);
}

}  // namespace sextant
