#pragma once
// What a problem rule's last judgement of its kind came to, kept so that the next pass judges
// again only the objects that changed since. At 150 000 Pods every batch of changes judged every
// Pod again (about 290 ms a pass, the daemon's CPU under churn); a rule's findings on an object
// are a function of the object and of what the rule read beside it, so they stand for as long as
// neither changed.
//
// What a rule read is recorded as a cached view's reads are (store/view_reads.hpp): each kind at
// its generation when first read. A change to any of them (the rule's own kind too, when it
// read other objects of it) makes the next pass judge the kind whole; so does a rule that read
// the clock, a polled document or every kind, whose findings may change with nothing written,
// and a change to what the cluster serves (as a cached view's stamp).
// The objects that changed come from the store's change listener (problem_engine::follow).
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sections/section.hpp"
#include "store/object.hpp"
#include "store/object_store.hpp"
#include "store/served_kinds.hpp"
#include "store/view_reads.hpp"

namespace sextant {

class rule_memo {
 public:
  using object_name = std::pair<std::string, std::string>;  // namespace, name

  // The rule's findings on one object that had any, with the object they are of.
  struct judged {
    object_ptr object;
    std::vector<finding> findings;
  };

  // More changes than this between two passes: the kind is judged whole, not object by object.
  static constexpr std::size_t max_changes = 4096;

  // An object of the rule's kind was written or deleted.
  void note_change(const cached_object& object);
  // Whether the next judgement may take only what changed: the last one was whole and nothing
  // it read beside its objects, and nothing the cluster serves, has changed since.
  bool holds(const object_store& store, const served_kinds& served) const;
  // Begins a judgement: hands over the objects changed since the last one and, until `complete`,
  // holds no whole judgement (a pass abandoned on the way leaves it partly updated).
  std::set<object_name> take_changes();
  // Ends a judgement that saw every object, with what the rule read on the way and the served
  // kinds' generation it began at.
  void complete(view_reads reads, std::uint64_t served_generation);
  void forget();

  std::map<object_name, judged>& found() { return found_; }
  const view_reads& reads() const { return reads_; }

 private:
  bool whole_ = false;
  bool too_many_changes_ = false;
  view_reads reads_;
  std::uint64_t served_generation_ = 0;
  std::map<object_name, judged> found_;
  std::set<object_name> changed_;
};

}  // namespace sextant
