#pragma once
// Rendered views, kept until what they read changes: each resource's list_model, and the bytes
// of each answer (a page, a filtered list, details, the problems), gzipped or not, with its
// ETag. An answer being rendered is shared: requests that arrive meanwhile advance the same
// render instead of starting their own, so a list is rendered once per change batch however
// many clients poll it.
//
// Owned by the event loop with the store; not thread-safe. Bounded by every byte an entry holds
// (its key, body, ETag and joins, and the map's node), and by a number of entries: past either,
// answers are dropped least recently used first. Only 200 answers are kept: an error is cheap to
// answer again and a caller can vary its URL without end. A list's pages and filtered subsets
// (`cache_tier::cuts`) are cut again from the cached list model in a millisecond, and their URLs
// vary without end too: they are kept in a budget of their own, an eighth of the whole, so that
// no number of distinct filters pushes out the views front-ends poll.
//
// An answer whose inputs changed can never be served again (generations only grow), yet nothing
// would ask for it to be dropped when no one asks for its URL again: a deleted Pod's details, a
// page left. Each lookup therefore looks at a few more kept answers, in turn, and drops those no
// longer current, so that under churn the cache holds what can still be served rather than
// filling to its bounds with the dead.
#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "api/gzip_body.hpp"
#include "api/list_model.hpp"
#include "api/view_stamp.hpp"
#include "auth/join_marks.hpp"

namespace sextant {

// One rendered answer, as served.
struct cached_answer {
  int status = 200;
  std::string content_type = "application/json";
  std::shared_ptr<const std::string> body;
  bool gzip = false;
  std::string etag;  // derived from the stamp, never from the bytes
  view_stamp stamp;
  std::shared_ptr<const std::vector<join_span>> joins;  // joined entries in `body` (per-caller views only)
};

// A view's answer before it is cached: status, body and what it read.
struct rendered_view {
  int status = 200;
  std::string content_type = "application/json";
  std::shared_ptr<const std::string> body;
  view_stamp stamp;
  std::shared_ptr<const std::vector<join_span>> joins;
};

class view_cache;

// Where an answer is kept (see above).
enum class cache_tier { views, cuts };

struct view_cache_limits {
  std::size_t max_bytes = std::size_t{96} << 20;
  std::size_t max_entries = 16384;
};

// The work of rendering one answer: the view (possibly in several slices), then gzip when
// asked. Shared by every request for the same answer while it runs.
class answer_job {
 public:
  // Renders within about `budget`; returns the view once done, nullopt while not yet.
  using renderer = std::function<std::optional<rendered_view>(std::chrono::microseconds budget)>;

  answer_job(view_cache& cache, std::string key, std::string etag_scope, bool gzip, cache_tier tier, renderer render);

  // One slice of the work; true once the answer is ready (and cached).
  bool step(std::chrono::microseconds budget);
  const cached_answer& result() const { return answer_; }

 private:
  view_cache& cache_;
  std::string key_;
  std::string etag_scope_;
  bool gzip_;
  cache_tier tier_;
  renderer render_;
  std::optional<rendered_view> view_;
  std::unique_ptr<gzip_body> compressing_;
  cached_answer answer_;
  bool done_ = false;
};

class view_cache {
 public:
  explicit view_cache(view_cache_limits limits = {});

  // A resource's list model: the cached one while current, or the render under way (started
  // when there is none). `start` makes a render.
  struct model_slot {
    std::shared_ptr<const list_model> model;
    std::shared_ptr<list_render> rendering;
  };
  model_slot& model(const std::string& key) { return models_[key]; }
  void count_list_render() { ++list_renders_; }

  // A current cached answer, or null. Counts a hit.
  const cached_answer* find(const std::string& key, const daemon_state& state);
  // The job rendering an answer, shared while it runs; `make` creates it when none runs.
  std::shared_ptr<answer_job> job(const std::string& key, const std::function<std::shared_ptr<answer_job>()>& make);
  // Keeps a finished answer (a 200 that fits its tier's budget); ends its job's sharing either way.
  void store(const std::string& key, cached_answer answer, cache_tier tier = cache_tier::views);

  // Names this process in ETags, so that an ETag from before a restart never matches.
  std::uint64_t boot() const { return boot_; }

  std::uint64_t list_renders() const { return list_renders_; }
  std::uint64_t answer_renders() const { return answer_renders_; }
  std::uint64_t hits() const { return hits_; }
  // Every byte the kept answers hold (keys, bodies, ETags, joins, the map's nodes), and how many.
  std::size_t bytes() const { return tiers_[0].bytes + tiers_[1].bytes; }
  std::size_t bytes(cache_tier tier) const { return tiers_[index(tier)].bytes; }
  std::size_t answers() const { return answers_.size(); }
  std::size_t answers(cache_tier tier) const { return tiers_[index(tier)].entries; }
  // The bytes of the cached list models (one per resource, bounded by the cluster, not by callers).
  std::size_t model_bytes() const;
  const view_cache_limits& limits() const { return limits_; }

 private:
  struct entry;
  using entries = std::map<std::string, entry>;
  struct entry {
    cached_answer answer;
    cache_tier tier = cache_tier::views;
    std::size_t bytes = 0;
    std::list<entries::iterator>::iterator recency;
  };
  struct tier_state {
    std::size_t max_bytes = 0;
    std::size_t max_entries = 0;
    std::size_t bytes = 0;
    std::size_t entries = 0;
    std::list<entries::iterator> recency;  // most recently used first
  };
  static std::size_t index(cache_tier tier) { return tier == cache_tier::views ? 0 : 1; }
  void drop(entries::iterator it);
  // Looks at the next few kept answers after `sweep_from_` (in key order, wrapping) and drops
  // those that are no longer current.
  void drop_some_stale(const daemon_state& state);

  view_cache_limits limits_;
  std::uint64_t boot_;
  std::map<std::string, model_slot> models_;
  entries answers_;
  tier_state tiers_[2];
  std::map<std::string, std::weak_ptr<answer_job>> running_;
  std::size_t running_swept_at_ = 0;  // running_'s size at its last sweep of ended jobs
  std::string sweep_from_;            // the key drop_some_stale looks at next
  std::uint64_t list_renders_ = 0;
  std::uint64_t answer_renders_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace sextant
