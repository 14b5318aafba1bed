#include "store/object.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace sextant {

std::string_view group_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view{} : api_version.substr(0, slash);
}

std::string_view version_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
}

namespace {

// The view at the same place in `copy` as `view` is in `original`; a view outside the body (a
// vocabulary word, store/packed_vocabulary.hpp) lives for ever and stays as it is.
std::string_view rebound(std::string_view view, const packed_body& original, const packed_body& copy) {
  if (view.empty()) {
    return {};
  }
  const auto* start = reinterpret_cast<const std::uint8_t*>(view.data());
  if (std::less<>{}(start, original.data()) || !std::less<>{}(start, original.data() + original.size())) {
    return view;
  }
  const auto offset = start - original.data();
  return {reinterpret_cast<const char*>(copy.data() + offset), view.size()};
}

}  // namespace

cached_object::cached_object(const cached_object& other)
    : packed(other.packed),
      type(other.type),
      api_version(rebound(other.api_version, other.packed, packed)),
      namespace_(rebound(other.namespace_, other.packed, packed)),
      name(rebound(other.name, other.packed, packed)),
      uid(rebound(other.uid, other.packed, packed)),
      resource_version(rebound(other.resource_version, other.packed, packed)),
      first_seen(other.first_seen) {}

std::string cached_object::key() const {
  std::string out;
  out.reserve(namespace_.size() + 1 + name.size());
  if (!namespace_.empty()) {
    out.append(namespace_).push_back('/');
  }
  out.append(name);
  return out;
}

bool key_less(std::string_view namespace_a, std::string_view name_a, std::string_view namespace_b,
              std::string_view name_b) {
  if (namespace_a == namespace_b) {
    return name_a < name_b;
  }
  // The keys differ within the longer namespace's first characters, or at the shorter one's '/'
  // (or its name, for a cluster-scoped object): compare "namespace/" against the other key.
  auto text = [](std::string_view namespace_, std::string_view name, std::size_t at) {
    if (namespace_.empty()) {
      return at < name.size() ? name[at] : '\0';
    }
    if (at < namespace_.size()) {
      return namespace_[at];
    }
    if (at == namespace_.size()) {
      return '/';
    }
    at -= namespace_.size() + 1;
    return at < name.size() ? name[at] : '\0';
  };
  const std::size_t length_a = namespace_a.empty() ? name_a.size() : namespace_a.size() + 1 + name_a.size();
  const std::size_t length_b = namespace_b.empty() ? name_b.size() : namespace_b.size() + 1 + name_b.size();
  for (std::size_t at = 0; at < std::min(length_a, length_b); ++at) {
    const auto a = static_cast<unsigned char>(text(namespace_a, name_a, at));
    const auto b = static_cast<unsigned char>(text(namespace_b, name_b, at));
    if (a != b) {
      return a < b;
    }
  }
  return length_a < length_b;
}

std::size_t cached_object::held_bytes() const {
  auto outside = [](const std::string& text) {
    // Short strings live inside the std::string itself (libstdc++ keeps up to 15 characters).
    return text.capacity() > 15 ? text.capacity() + 1 : 0;
  };
  return sizeof(cached_object) + packed.size() + outside(type.group) + outside(type.kind);
}

namespace {

std::string_view string_at(const packed_value& body, std::initializer_list<path_step> path) {
  const packed_value* value = find(body, path);
  return value != nullptr ? value->string_view() : std::string_view{};
}

}  // namespace

object_ptr make_object(packed_body packed, time_point first_seen, std::string* error) {
  auto fail = [error](std::string message) -> object_ptr {
    if (error != nullptr) {
      *error = std::move(message);
    }
    return nullptr;
  };
  auto object = std::make_shared<cached_object>();
  object->packed = std::move(packed);
  const packed_value& body = object->packed.root();
  if (!body.is_object()) {
    return fail("not a JSON object");
  }
  // Views into the body, which moved into the object above and stays where it is.
  object->api_version = string_at(body, {"apiVersion"});
  const std::string_view kind = string_at(body, {"kind"});
  object->name = string_at(body, {"metadata", "name"});
  if (object->api_version.empty()) {
    return fail("missing apiVersion");
  }
  if (kind.empty()) {
    return fail("missing kind");
  }
  if (object->name.empty()) {
    return fail("missing metadata.name");
  }
  object->type = kind_key{std::string(group_of(object->api_version)), std::string(kind)};
  object->namespace_ = string_at(body, {"metadata", "namespace"});
  object->uid = string_at(body, {"metadata", "uid"});
  object->resource_version = string_at(body, {"metadata", "resourceVersion"});
  object->first_seen = first_seen;
  return object;
}

object_ptr make_object(const json& body, time_point first_seen, std::string* error) {
  return make_object(pack(body), first_seen, error);
}

}  // namespace sextant
