#pragma once
// Which fields of an object the daemon keeps: a tree of member names.
//
// A kind's views read a small part of each object; a mask keeps that part and the rest is never
// built. `metadata.managedFields` and the last-applied-configuration annotation are dropped for
// every kind, whatever its mask says (see ingest_profile).
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sextant {

class field_mask {
 public:
  // A mask that keeps everything.
  static field_mask everything() { return field_mask{}; }
  // A mask that keeps only the given dotted paths ("status.conditions", "spec.podSets.name");
  // a path through an array applies to each of its elements.
  static field_mask only(std::initializer_list<std::string_view> paths);
  static field_mask only(const std::vector<std::string_view>& paths);

  // Keeps `path` too ("spec.resourceClaims"); a mask that keeps everything already does.
  void keep(std::string_view path);

  bool keeps_everything() const { return keep_all_; }
  // Keeps everything below with no narrower rule: nothing to walk.
  bool is_whole() const { return keep_all_ && children_.empty(); }
  // The mask for member `key`, or nullptr when the member is not kept.
  const field_mask* child(std::string_view key) const;

 private:
  void add_path(std::string_view path);

  bool keep_all_ = true;
  std::vector<std::pair<std::string, field_mask>> children_;
};

}  // namespace sextant
