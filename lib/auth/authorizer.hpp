#pragma once
// May a caller do this? SubjectAccessReviews, asked of the API server in the caller's name, so
// that the daemon decides exactly as Kubernetes itself would (RBAC, webhooks, whatever the
// cluster runs). Decisions are kept for `ttl` by caller and question; a review without a
// usable answer is not kept, and the request it was for answers 503 with Retry-After. While
// reviews fail, the gate (review_gate) sends one now and then as a probe and refuses the rest
// at once, so that callers retrying through an outage do not become a storm of reviews.
//
// A caller polling a list over many namespaces holds one decision per namespace. Were each kept
// on its own clock, one would always have just ended and every request would wait for a review.
// So the questions asked together are kept until the same time (from when they were asked), and
// a decision still used in the last quarter of its time is asked again in the background while
// the kept one goes on answering: a caller who keeps asking never waits, and no decision is used
// past its time. A question already on its way to the API server is not sent a second time;
// every request that needs it waits for the one answer.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
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
  using time = std::chrono::steady_clock::time_point;
  using clock = std::function<time()>;

  authorizer(
      boost::asio::any_io_executor executor, poster post, std::chrono::seconds ttl, std::size_t max_entries = 65536,
      review_gate gate = review_gate(), clock now = [] { return std::chrono::steady_clock::now(); });

  // The cached decision, and until when what is decided from it holds: the decision's end, or,
  // once it is due to be asked again, the time it became due (the asking starts here, in the
  // background). nullopt when none is cached.
  std::optional<kept_decision> known(const caller& who, const access_check& check);
  // Asks every question (several reviews in flight at once) and caches the answers; says what
  // went wrong when one got no usable answer (or was not sent), else its error is empty.
  boost::asio::awaitable<undecided> decide(caller who, std::vector<access_check> checks);

  // Reviews sent, and of them those sent to renew a decision still kept.
  std::uint64_t reviews() const { return reviews_; }
  std::uint64_t renewals() const { return renewals_sent_; }
  const review_gate& gate() const { return gate_; }

 private:
  struct decision {
    bool allowed = false;
    time renew_from = time::max();  // max: not asked again ahead (on its way already, or kept briefly)
  };
  struct in_flight;
  struct renewal {
    caller who;
    access_check check;
    std::string key;
    time asked_at;
  };

  std::string key_of(const caller& who, const access_check& check);
  std::shared_ptr<in_flight> send(caller who, access_check check, std::string key, time asked_at);
  boost::asio::awaitable<undecided> review(caller who, access_check check, std::string key, time asked_at,
                                           std::shared_ptr<in_flight> flight);
  boost::asio::awaitable<undecided> ask(const caller& who, const access_check& check, const std::string& key,
                                        time asked_at);
  static boost::asio::awaitable<undecided> join(std::shared_ptr<in_flight> flight);
  void queue_renewal(const caller& who, const access_check& check, const std::string& key, time now);
  boost::asio::awaitable<void> renew();

  boost::asio::any_io_executor executor_;
  poster post_;
  std::chrono::seconds ttl_;
  std::size_t max_entries_;
  expiring_cache<decision> decisions_;
  std::map<std::string, std::shared_ptr<in_flight>> in_flight_;  // by key: the reviews sent, not yet answered
  std::deque<renewal> renewals_;                                 // due to be asked again, oldest first
  std::size_t renewers_ = 0;                                     // coroutines asking them
  // The last caller asked about, and its part of the keys: a request asks its caller's questions
  // in a row (a list's cut asks one per namespace), and the part is hundreds of bytes to build.
  std::optional<std::pair<caller, std::string>> last_caller_;
  review_gate gate_;
  clock now_;
  log_throttle failures_logged_;  // while the API server is down, every request's reviews fail
  std::uint64_t reviews_ = 0;
  std::uint64_t renewals_sent_ = 0;
};

}  // namespace sextant
