#pragma once
// One render's readings: a section reads an object once (`read_cluster`, `read_jobset`, ...) and
// its state, summary and details all render from that one reading. The renderer makes a memo for
// each object it renders and points the view context at it; `read_once` (common/read_once.hpp)
// keeps a reading there by the object and the reading's type. Without a memo (a problem rule, a
// test) every call reads afresh, as before.
#include <memory>
#include <typeindex>
#include <vector>

#include "store/object.hpp"

namespace sextant {

class readings_memo {
 public:
  // The reading of this type kept for the object, or null.
  std::shared_ptr<const void> find(const cached_object& object, std::type_index type) const {
    for (const entry& e : entries_) {
      if (e.object == &object && e.type == type) {
        return e.reading;
      }
    }
    return nullptr;
  }
  void keep(const cached_object& object, std::type_index type, std::shared_ptr<const void> reading) {
    entries_.push_back({&object, type, std::move(reading)});
  }

 private:
  // A render reads one object and a few it joins: a short list beats a hash map here.
  struct entry {
    const cached_object* object;
    std::type_index type;
    std::shared_ptr<const void> reading;
  };
  std::vector<entry> entries_;
};

}  // namespace sextant
