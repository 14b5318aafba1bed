#include "auth/access_check.hpp"

#include "util/key_encoding.hpp"

namespace sextant {

access_check access_check::on_resource(std::string verb, std::string group, std::string resource,
                                       std::string namespace_, std::string subresource) {
  access_check check;
  check.verb = std::move(verb);
  check.group = std::move(group);
  check.resource = std::move(resource);
  check.namespace_ = std::move(namespace_);
  check.subresource = std::move(subresource);
  return check;
}

access_check access_check::on_path(std::string verb, std::string path) {
  access_check check;
  check.verb = std::move(verb);
  check.path = std::move(path);
  return check;
}

std::string access_check::words() const {
  if (non_resource()) {
    return verb + " " + path;
  }
  std::string out = verb + " " + resource + (subresource.empty() ? "" : "/" + subresource);
  if (!namespace_.empty()) {
    out += " in " + namespace_;
  }
  return out;
}

std::string caller_key(const caller& who) {
  // Every field length-prefixed: a user, group or extra value may hold any byte (an OIDC
  // provider names them), and {"scopes": ["a,b"]} must not share a key with ["a", "b"].
  key_builder key;
  key.add(who.user).add(who.uid).count(who.groups.size());
  for (const std::string& group : who.groups) {
    key.add(group);
  }
  key.count(who.extra.size());
  for (const auto& [name, values] : who.extra) {
    key.add(name).count(values.size());
    for (const std::string& value : values) {
      key.add(value);
    }
  }
  return key.take();
}

std::string access_key(const std::string& caller_part, const access_check& check) {
  // A fixed number of length-prefixed fields, then the caller's part: no two pairs share a key.
  key_builder key;
  for (const std::string* field :
       {&check.verb, &check.group, &check.resource, &check.subresource, &check.namespace_, &check.name, &check.path}) {
    key.add(*field);
  }
  std::string out = key.take();
  out += caller_part;
  return out;
}

std::string access_key(const caller& who, const access_check& check) {
  return access_key(caller_key(who), check);
}

}  // namespace sextant
