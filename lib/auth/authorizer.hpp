#pragma once
// May a caller do this? SubjectAccessReviews, asked of the API server in the caller's name, so
// that the daemon decides exactly as Kubernetes itself would (RBAC, webhooks, whatever the
// cluster runs). Decisions are kept for `ttl` by caller and question; a review without a
// usable answer is not kept, and the request it was for answers 503 with Retry-After. While
// reviews fail, the gate (review_gate) sends one now and then as a probe and refuses the rest
// at once, so that callers retrying through an outage do not become a storm of reviews.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "auth/access_check.hpp"
#include "auth/caller.hpp"
#include "auth/expiring_cache.hpp"
#include "auth/request_access.hpp"
#include "auth/review_gate.hpp"
#include "kube/api_client.hpp"
#include "util/log_throttle.hpp"

namespace sextant {

// Why some question of a request got no decision ("" when all did), and when to ask again.
struct undecided {
  std::string error;
  std::chrono::seconds retry_after{0};
};

class authorizer {
 public:
  using poster = std::function<boost::asio::awaitable<kube::http_reply>(std::string path, std::string body)>;

  authorizer(boost::asio::any_io_executor executor, poster post, std::chrono::seconds ttl,
             std::size_t max_entries = 65536, review_gate gate = review_gate())
      : executor_(std::move(executor)), post_(std::move(post)), decisions_(ttl, max_entries), gate_(std::move(gate)) {}

  // The cached decision and until when it is kept, or nullopt.
  std::optional<kept_decision> known(const caller& who, const access_check& check);
  // Asks every question (several reviews in flight at once) and caches the answers; says what
  // went wrong when one got no usable answer (or was not sent), else its error is empty.
  boost::asio::awaitable<undecided> decide(caller who, std::vector<access_check> checks);

  std::uint64_t reviews() const { return reviews_; }
  const review_gate& gate() const { return gate_; }

 private:
  boost::asio::awaitable<undecided> review(caller who, access_check check);

  boost::asio::any_io_executor executor_;
  poster post_;
  expiring_cache<bool> decisions_;
  // The last caller asked about, and its part of the keys: a request asks its caller's questions
  // in a row (a list's cut asks one per namespace), and the part is hundreds of bytes to build.
  std::optional<std::pair<caller, std::string>> last_caller_;
  review_gate gate_;
  log_throttle failures_logged_;  // while the API server is down, every request's reviews fail
  std::uint64_t reviews_ = 0;
};

}  // namespace sextant
