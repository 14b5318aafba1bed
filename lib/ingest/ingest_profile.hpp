#pragma once
// How a kind is cached: which fields are kept, what is summarised, which labels are indexed.
//
// Sections declare a profile for each heavy kind they own (a Kueue Workload keeps its
// conditions and summed requests, not its pod templates). Kinds without one are kept whole,
// less the fields no view reads for any kind (managedFields, last-applied-configuration).
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/field_mask.hpp"
#include "store/object.hpp"
#include "store/packed_writer.hpp"
#include "util/json.hpp"

namespace sextant {

struct ingest_profile {
  field_mask mask = field_mask::everything();
  // Runs after masking, on the kept fields: writes the value to cache, which may summarise and
  // drop further. Without one the masked value is cached as it is.
  std::function<void(const packed_value& masked, packed_writer& out)> transform;
  std::vector<std::string> indexed_labels;

  // A profile keeping `paths` plus what every object needs (apiVersion, kind, metadata).
  static ingest_profile keeping(std::initializer_list<std::string_view> paths);
};

class ingest_profiles {
 public:
  void set(const kind_key& type, ingest_profile profile);
  // The kind's profile to add to: the one set, else a keep-everything one set now.
  ingest_profile& edit(const kind_key& type);
  // The kind's profile, or the keep-everything default.
  const ingest_profile& for_kind(const kind_key& type) const;
  const std::map<kind_key, ingest_profile>& all() const { return profiles_; }

 private:
  std::map<kind_key, ingest_profile> profiles_;
  ingest_profile default_profile_;
};

// Applies a profile to a fully decoded object (the YAML and untyped-JSON path): drops
// managedFields and last-applied-configuration, prunes to the mask, packs, runs the transform.
packed_body apply_profile(json object, const ingest_profile& profile, packed_writer& writer);

// Runs the profile's transform, if it has one, on a value already masked and packed.
packed_body apply_transform(packed_body masked, const ingest_profile& profile, packed_writer& writer);

// Whether a metadata member or annotation is dropped for every kind.
bool dropped_metadata_member(std::string_view key);
bool dropped_annotation(std::string_view key);

}  // namespace sextant
