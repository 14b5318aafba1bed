#include "api/view_cache.hpp"

#include <algorithm>
#include <random>

#include "util/digest.hpp"
#include "util/held_bytes.hpp"

namespace sextant {

answer_job::answer_job(view_cache& cache, std::string key, std::string etag_scope, bool gzip, cache_tier tier,
                       renderer render)
    : cache_(cache),
      key_(std::move(key)),
      etag_scope_(std::move(etag_scope)),
      gzip_(gzip),
      tier_(tier),
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
  cache_.store(key_, answer_, tier_);
  done_ = true;
  return true;
}

namespace {

// Every byte one kept answer holds: the map's node with the key and entry, the key's text, and
// what the answer points to (its body once, its ETag, its joins).
std::size_t held_bytes(const std::string& key, const cached_answer& answer, std::size_t entry_size) {
  std::size_t bytes = node_overhead + sizeof(std::string) + entry_size + node_overhead /* recency */;
  bytes += heap_bytes(key) + heap_bytes(answer.content_type) + heap_bytes(answer.etag);
  if (answer.body) {
    bytes += node_overhead /* shared_ptr's block */ + sizeof(std::string) + heap_bytes(*answer.body);
  }
  if (answer.joins) {
    bytes += node_overhead + answer.joins->capacity() * sizeof(join_span);
    for (const join_span& span : *answer.joins) {
      bytes += heap_bytes(span.type.group) + heap_bytes(span.type.kind) + heap_bytes(span.namespace_);
    }
  }
  return bytes;
}

}  // namespace

view_cache::view_cache(view_cache_limits limits) : limits_(limits) {
  std::random_device random;
  boot_ = (static_cast<std::uint64_t>(random()) << 32) ^ random() ^
          static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  // Cuts get an eighth (at least one entry); views the rest.
  tier_state& cuts = tiers_[index(cache_tier::cuts)];
  cuts.max_bytes = limits_.max_bytes / 8;
  cuts.max_entries = std::max<std::size_t>(1, limits_.max_entries / 8);
  tier_state& views = tiers_[index(cache_tier::views)];
  views.max_bytes = limits_.max_bytes - cuts.max_bytes;
  views.max_entries = std::max<std::size_t>(1, limits_.max_entries - cuts.max_entries);
}

namespace {

// Kept answers looked at per lookup: two answers looked at for each asked is enough to go round
// a cache of thousands within a minute of front-ends polling, at a few generation compares each.
constexpr int stale_checks_per_lookup = 2;

}  // namespace

void view_cache::drop_some_stale(const daemon_state& state) {
  auto it = answers_.lower_bound(sweep_from_);
  for (int looked = 0; looked < stale_checks_per_lookup && !answers_.empty(); ++looked) {
    if (it == answers_.end()) {
      it = answers_.begin();
    }
    auto next = std::next(it);
    if (!it->second.answer.stamp.current(state)) {
      drop(it);
    }
    it = next;
  }
  sweep_from_ = it == answers_.end() ? std::string() : it->first;
}

const cached_answer* view_cache::find(const std::string& key, const daemon_state& state) {
  drop_some_stale(state);
  auto it = answers_.find(key);
  if (it == answers_.end()) {
    return nullptr;
  }
  if (!it->second.answer.stamp.current(state)) {
    drop(it);
    return nullptr;
  }
  std::list<entries::iterator>& recency = tiers_[index(it->second.tier)].recency;
  recency.splice(recency.begin(), recency, it->second.recency);
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
  // A job whose requests all went away (a client that left, a render that threw) never stores:
  // its entry is swept once the map has doubled since the last sweep.
  if (running_.size() >= 2 * running_swept_at_ + 16) {
    std::erase_if(running_, [](const auto& running) { return running.second.expired(); });
    running_swept_at_ = running_.size();
  }
  ++answer_renders_;
  std::shared_ptr<answer_job> job = make();
  running_[key] = job;
  return job;
}

void view_cache::store(const std::string& key, cached_answer answer, cache_tier tier) {
  running_.erase(key);
  if (auto it = answers_.find(key); it != answers_.end()) {
    drop(it);
  }
  if (answer.status != 200) {
    return;  // an error is cheap to answer again, and its URL can be varied without end
  }
  tier_state& kept = tiers_[index(tier)];
  const std::size_t size = held_bytes(key, answer, sizeof(entry));
  if (size > kept.max_bytes / 4) {
    return;  // one answer may not push out everything else
  }
  auto [it, inserted] = answers_.emplace(key, entry{std::move(answer), tier, size, {}});
  (void)inserted;
  kept.recency.push_front(it);
  it->second.recency = kept.recency.begin();
  kept.bytes += size;
  ++kept.entries;
  while ((kept.bytes > kept.max_bytes || kept.entries > kept.max_entries) && !kept.recency.empty()) {
    drop(kept.recency.back());
  }
}

void view_cache::drop(entries::iterator it) {
  tier_state& kept = tiers_[index(it->second.tier)];
  kept.bytes -= it->second.bytes;
  --kept.entries;
  kept.recency.erase(it->second.recency);
  answers_.erase(it);
}

std::size_t view_cache::model_bytes() const {
  std::size_t bytes = 0;
  for (const auto& [key, slot] : models_) {
    bytes += node_overhead + heap_bytes(key) + (slot.model ? slot.model->bytes : 0);
  }
  return bytes;
}

}  // namespace sextant
