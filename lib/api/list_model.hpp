#pragma once
// A resource's list, rendered once per change: each item's SUMMARY as JSON text, with what the
// list's filters and pages read (key, state label, queue, labels), and the stamp of what the
// render read. Pages, filters and the whole list are cut from it without rendering again.
//
// `list_render` renders in slices of a bounded time, so the event loop can serve other requests
// between them; objects are immutable, so a slice reads the objects listed at the start even if
// the store has changed since (the stamp then is no longer current and the next request renders
// again).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/view_stamp.hpp"
#include "auth/caller_cuts.hpp"
#include "auth/join_marks.hpp"
#include "runtime/daemon_state.hpp"

namespace sextant {

struct list_item {
  std::string key;  // "namespace/name" (or "name"): the order, and where a page continues
  std::string namespace_;
  std::string body;   // the SUMMARY, as JSON text
  std::string state;  // state.label
  std::string queue;  // the summary's localQueue, when it has one
  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<join_span> joins;  // the objects the summary joins, in `body` (per-caller views only)
};

struct list_model {
  std::vector<list_item> items;
  bool incomplete = false;
  std::string incomplete_reason;
  view_stamp stamp;
  bool computed = false;  // a computed page: items in the page's own order, cursor by position
  std::vector<namespace_run> runs;
  // The positions of the items of each state label and each queue, ascending: how many items
  // of a state follow a page is two binary searches, not a scan.
  std::map<std::string, std::vector<std::uint32_t>> positions_by_state;
  std::map<std::string, std::vector<std::uint32_t>> positions_by_queue;
  std::size_t bytes = 0;  // what the model holds, for the view cache's accounting
};

class list_render {
 public:
  // `state` is not const only because interpreter failures are counted in it.
  list_render(daemon_state& state, const section& owner, const resource_def& resource);

  // Renders for about `budget` (at least one object); returns true once the list is done.
  bool step(std::chrono::microseconds budget);
  bool done() const { return done_; }
  // The finished list (shared: cached and served at once).
  std::shared_ptr<const list_model> result() const { return result_; }

 private:
  void start(const view_context& context);
  void finish(const view_context& context);

  daemon_state& state_;
  const section& owner_;
  const resource_def& resource_;
  time_point rendered_at_;
  view_reads reads_;
  std::vector<object_ptr> objects_;
  std::size_t next_ = 0;
  bool started_ = false;
  bool done_ = false;
  list_model model_;
  std::shared_ptr<const list_model> result_;
};

}  // namespace sextant
