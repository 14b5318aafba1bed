#pragma once
// Who sent a request: the bearer token of its Authorization header, checked with a TokenReview.
//
// Verdicts (known and unknown tokens alike) are kept for `ttl` under the token's SHA-256, never
// the token; a review that got no usable answer is not kept, so the next request asks again.
// A token without a verdict is reviewed only while its client (an address) has budget for
// invalid tokens (client_budget): a client sending made-up tokens is answered 429 after its
// burst instead of costing the API server a review each. A review the API server could not
// answer charges no budget, and while reviews fail the gate (review_gate) lets one through as a
// probe now and then and answers the rest 503 at once, so an outage is not met with a storm.
// Runs on the event loop: the review is a coroutine and the loop serves others meanwhile.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "auth/bearer_token.hpp"
#include "auth/caller.hpp"
#include "auth/client_budget.hpp"
#include "auth/expiring_cache.hpp"
#include "auth/kube_reviews.hpp"
#include "auth/review_gate.hpp"
#include "kube/api_client.hpp"
#include "util/log_throttle.hpp"

namespace sextant {

struct authentication {
  std::optional<caller> who;  // set when the token is good
  // else 401 (no, or a bad, token), 429 (the client sent too many invalid tokens: not reviewed),
  // or 503 (the review failed, or was not sent while the API server fails reviews)
  int status = 401;
  std::string message;
  std::chrono::seconds retry_after{0};  // with 429 and 503
};

struct invalid_token_budget {
  double per_minute = 30;  // reviews of tokens that turn out invalid, per client
  double burst = 10;
};

class authenticator {
 public:
  // Sends a review body to a path of the API server.
  using poster = std::function<boost::asio::awaitable<kube::http_reply>(std::string path, std::string body)>;

  authenticator(poster post, std::chrono::seconds ttl, std::size_t max_entries = 4096, invalid_token_budget budget = {},
                review_gate gate = review_gate())
      : post_(std::move(post)),
        verdicts_(ttl, max_entries),
        budget_(budget.per_minute, budget.burst),
        gate_(std::move(gate)) {}

  // `authorization` is the header's value ("Bearer <token>"), empty when there is none; `client`
  // is who sent it (api_request::client).
  boost::asio::awaitable<authentication> authenticate(std::string authorization, std::string client = {});

  std::size_t cached() const { return verdicts_.size(); }
  std::uint64_t reviews() const { return reviews_; }
  const review_gate& gate() const { return gate_; }

 private:
  poster post_;
  expiring_cache<token_verdict> verdicts_;
  client_budget budget_;
  review_gate gate_;
  log_throttle failures_logged_;  // while the API server is down, every request's review fails
  std::uint64_t reviews_ = 0;
};

}  // namespace sextant
