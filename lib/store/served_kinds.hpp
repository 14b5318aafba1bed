#pragma once
// What the cluster serves: the daemon's view of discovery.
//
// Live, it is filled from the API server's discovery documents; in snapshot mode, from the
// objects and CustomResourceDefinitions in the snapshot. Sections are listed from it.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/object.hpp"

namespace sextant {

struct served_kind {
  kind_key type;
  std::string plural;  // "workloads"
  bool namespaced = true;
  std::vector<std::string> versions;  // served versions, the server's preferred first
  bool operator==(const served_kind&) const = default;
};

// The version to read: the first of `preference` the kind is served in, else the server's
// preferred one. The watches read this version, and links name it.
std::string choose_version(const served_kind& kind, const std::vector<std::string>& preference);
// The same choice among versions listed by hand (a group's, when the kind itself is not served).
std::string choose_version(const std::vector<std::string>& served, const std::vector<std::string>& preference);

class served_kinds {
 public:
  // Adds a kind or merges versions into the one already known.
  void add(served_kind kind);
  void remove(const kind_key& type);
  void clear() {
    kinds_.clear();
    ++generation_;
  }
  bool serves(const kind_key& type) const { return kinds_.contains(type); }
  bool empty() const { return kinds_.empty(); }  // live: discovery has not been read yet
  const served_kind* find(const kind_key& type) const;
  // Every served version of a group, in the order first seen.
  std::vector<std::string> group_versions(const std::string& group) const;
  std::vector<served_kind> all() const;
  // Changes whenever what is served changes: cached views key on it (links, sections).
  std::uint64_t generation() const { return generation_; }
  // The same kinds, versions, scopes and unanswered groups (generations aside): a discovery that
  // found nothing new need not replace what every cached view was rendered against.
  bool same_as(const served_kinds& other) const {
    return kinds_ == other.kinds_ && unanswered_ == other.unanswered_ && inferred_ == other.inferred_;
  }

  // True when filled from a snapshot's objects and CRDs rather than the server's discovery: a kind
  // missing from it may then still be served, in a version its group's other kinds show. Live
  // discovery is whole, so there a kind it does not list is not served in any version.
  bool inferred() const { return inferred_; }
  void set_inferred(bool inferred) { inferred_ = inferred; }

  // Groups discovery names but could not read this time (an aggregated API whose server does not
  // answer): registered, so "not served" would be wrong, yet nothing of them can be read now.
  void set_unanswered(std::set<std::string> groups) { unanswered_ = std::move(groups); }
  bool unanswered(const std::string& group) const { return unanswered_.contains(group); }

 private:
  std::map<kind_key, served_kind> kinds_;
  std::set<std::string> unanswered_;
  bool inferred_ = false;
  std::uint64_t generation_ = 0;
};

}  // namespace sextant
