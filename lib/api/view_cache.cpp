#include "api/view_cache.hpp"

#include <random>

#include "util/digest.hpp"

namespace sextant {

answer_job::answer_job(view_cache& cache, std::string key, std::string etag_scope, bool gzip, renderer render)
    : cache_(cache),
      key_(std::move(key)),
      etag_scope_(std::move(etag_scope)),
      gzip_(gzip),
      render_(std::move(render)) {}

bool answer_job::step(std::chrono::microseconds budget) {
  if (done_) {
    return true;
  }
  if (!view_) {
    view_ = render_(budget);
    if (!view_) {
      return false;
    }
    render_ = nullptr;
    if (gzip_ && view_->status == 200) {
      compressing_ = std::make_unique<gzip_body>(view_->body);
      return false;  // compress in the next slices
    }
  }
  std::shared_ptr<const std::string> body = view_->body;
  if (compressing_) {
    if (!compressing_->step()) {
      return false;
    }
    body = compressing_->result();
    compressing_.reset();
  }
  answer_.status = view_->status;
  answer_.content_type = view_->content_type;
  answer_.body = std::move(body);
  answer_.gzip = gzip_ && view_->status == 200;
  answer_.stamp = view_->stamp;
  answer_.joins = view_->joins;
  // Same scope (route and parameters) and same inputs: same bytes, so the same ETag. The
  // encoding is part of it: a gzipped body is another representation.
  fnv1a tag;
  tag.add(cache_.boot());
  tag.add(etag_scope_);
  tag.add(answer_.stamp.digest());
  answer_.etag = "\"" + hex16(tag.value) + (answer_.gzip ? "-gz" : "") + "\"";
  view_.reset();
  cache_.store(key_, answer_);
  done_ = true;
  return true;
}

view_cache::view_cache(std::size_t max_bytes) : max_bytes_(max_bytes) {
  std::random_device random;
  boot_ = (static_cast<std::uint64_t>(random()) << 32) ^ random() ^
          static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
}

const cached_answer* view_cache::find(const std::string& key, const daemon_state& state) {
  auto it = answers_.find(key);
  if (it == answers_.end()) {
    return nullptr;
  }
  if (!it->second.answer.stamp.current(state)) {
    bytes_ -= it->second.answer.body ? it->second.answer.body->size() : 0;
    recency_.erase(it->second.recency);
    answers_.erase(it);
    return nullptr;
  }
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  ++hits_;
  return &it->second.answer;
}

std::shared_ptr<answer_job> view_cache::job(const std::string& key,
                                            const std::function<std::shared_ptr<answer_job>()>& make) {
  if (auto running = running_.find(key); running != running_.end()) {
    if (auto job = running->second.lock()) {
      return job;
    }
  }
  ++answer_renders_;
  std::shared_ptr<answer_job> job = make();
  running_[key] = job;
  return job;
}

void view_cache::store(const std::string& key, cached_answer answer) {
  running_.erase(key);
  const std::size_t size = answer.body ? answer.body->size() : 0;
  if (size > max_bytes_ / 4) {
    return;  // one answer may not push out everything else
  }
  if (auto it = answers_.find(key); it != answers_.end()) {
    bytes_ -= it->second.answer.body ? it->second.answer.body->size() : 0;
    recency_.erase(it->second.recency);
    answers_.erase(it);
  }
  recency_.push_front(key);
  answers_.emplace(key, entry{std::move(answer), recency_.begin()});
  bytes_ += size;
  while (bytes_ > max_bytes_ && !recency_.empty()) {
    auto oldest = answers_.find(recency_.back());
    bytes_ -= oldest->second.answer.body ? oldest->second.answer.body->size() : 0;
    answers_.erase(oldest);
    recency_.pop_back();
  }
}

}  // namespace sextant
