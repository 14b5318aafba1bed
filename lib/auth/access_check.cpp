#include "auth/access_check.hpp"

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

namespace {
// Fields are joined by a byte no name, group, verb or path may hold, so no two questions share a key.
constexpr char separator = '\x1f';
}  // namespace

std::string access_key(const caller& who, const access_check& check) {
  std::string key = who.user + separator + who.uid;
  for (const std::string& group : who.groups) {
    key += separator + group;
  }
  key += separator;
  for (const auto& [name, values] : who.extra) {
    key += separator + name + "=";
    for (const std::string& value : values) {
      key += value + ",";
    }
  }
  for (const std::string* field :
       {&check.verb, &check.group, &check.resource, &check.subresource, &check.namespace_, &check.name, &check.path}) {
    key += separator + *field;
  }
  return key;
}

}  // namespace sextant
