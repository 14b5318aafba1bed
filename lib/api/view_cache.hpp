#pragma once
// Rendered views, kept until what they read changes: each resource's list_model, and the bytes
// of each answer (a page, a filtered list, details, the problems), gzipped or not, with its
// ETag. An answer being rendered is shared: requests that arrive meanwhile advance the same
// render instead of starting their own, so a list is rendered once per change batch however
// many clients poll it.
//
// Owned by the event loop with the store; not thread-safe. Bounded: answers beyond
// `max_bytes` are dropped least recently used first.
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

// The work of rendering one answer: the view (possibly in several slices), then gzip when
// asked. Shared by every request for the same answer while it runs.
class answer_job {
 public:
  // Renders within about `budget`; returns the view once done, nullopt while not yet.
  using renderer = std::function<std::optional<rendered_view>(std::chrono::microseconds budget)>;

  answer_job(view_cache& cache, std::string key, std::string etag_scope, bool gzip, renderer render);

  // One slice of the work; true once the answer is ready (and cached).
  bool step(std::chrono::microseconds budget);
  const cached_answer& result() const { return answer_; }

 private:
  view_cache& cache_;
  std::string key_;
  std::string etag_scope_;
  bool gzip_;
  renderer render_;
  std::optional<rendered_view> view_;
  std::unique_ptr<gzip_body> compressing_;
  cached_answer answer_;
  bool done_ = false;
};

class view_cache {
 public:
  explicit view_cache(std::size_t max_bytes = std::size_t{96} << 20);

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
  void store(const std::string& key, cached_answer answer);

  // Names this process in ETags, so that an ETag from before a restart never matches.
  std::uint64_t boot() const { return boot_; }

  std::uint64_t list_renders() const { return list_renders_; }
  std::uint64_t answer_renders() const { return answer_renders_; }
  std::uint64_t hits() const { return hits_; }
  std::size_t bytes() const { return bytes_; }
  std::size_t answers() const { return answers_.size(); }

 private:
  struct entry {
    cached_answer answer;
    std::list<std::string>::iterator recency;
  };
  std::size_t max_bytes_;
  std::uint64_t boot_;
  std::map<std::string, model_slot> models_;
  std::map<std::string, entry> answers_;
  std::list<std::string> recency_;  // most recently used first
  std::map<std::string, std::weak_ptr<answer_job>> running_;
  std::size_t bytes_ = 0;
  std::uint64_t list_renders_ = 0;
  std::uint64_t answer_renders_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace sextant
