#include "ingest/ingest_profile.hpp"

#include <string>
#include <vector>

namespace sextant {

ingest_profile ingest_profile::keeping(std::initializer_list<std::string_view> paths) {
  std::vector<std::string_view> all{"apiVersion", "kind", "metadata"};
  all.insert(all.end(), paths.begin(), paths.end());
  ingest_profile profile;
  profile.mask = field_mask::only(all);
  return profile;
}

void ingest_profiles::set(const kind_key& type, ingest_profile profile) {
  profiles_[type] = std::move(profile);
}

ingest_profile& ingest_profiles::edit(const kind_key& type) {
  return profiles_[type];
}

const ingest_profile& ingest_profiles::for_kind(const kind_key& type) const {
  auto it = profiles_.find(type);
  return it == profiles_.end() ? default_profile_ : it->second;
}

bool dropped_metadata_member(std::string_view key) {
  return key == "managedFields";
}

bool dropped_annotation(std::string_view key) {
  return key == "kubectl.kubernetes.io/last-applied-configuration";
}

namespace {

void prune(json& value, const field_mask& mask) {
  if (mask.is_whole()) {
    return;
  }
  if (value.is_array()) {
    for (json& element : value) {
      prune(element, mask);
    }
    return;
  }
  if (!value.is_object()) {
    return;
  }
  json kept = json::object();
  for (auto& [key, member] : value.items()) {
    const field_mask* child = mask.child(key);
    if (child == nullptr) {
      continue;
    }
    prune(member, *child);
    kept[key] = std::move(member);
  }
  value = std::move(kept);
}

}  // namespace

packed_body apply_profile(json object, const ingest_profile& profile, packed_writer& writer) {
  if (!object.is_object()) {
    writer.write(object);
    return writer.finish();
  }
  if (auto metadata = object.find("metadata"); metadata != object.end() && metadata->is_object()) {
    metadata->erase("managedFields");
    if (auto annotations = metadata->find("annotations"); annotations != metadata->end() && annotations->is_object()) {
      annotations->erase("kubectl.kubernetes.io/last-applied-configuration");
    }
  }
  prune(object, profile.mask);
  writer.write(object);
  return apply_transform(writer.finish(), profile, writer);
}

packed_body apply_transform(packed_body masked, const ingest_profile& profile, packed_writer& writer) {
  if (!profile.transform) {
    return masked;
  }
  profile.transform(masked.root(), writer);
  return writer.finish();
}

}  // namespace sextant
