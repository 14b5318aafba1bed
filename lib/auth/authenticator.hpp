#pragma once
// Who sent a request: the bearer token of its Authorization header, checked with a TokenReview.
//
// Verdicts (known and unknown tokens alike) are kept for `ttl` under the token's SHA-256, never
// the token; a review that got no usable answer is not kept, so the next request asks again.
// Runs on the event loop: the review is a coroutine and the loop serves others meanwhile.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "auth/bearer_token.hpp"
#include "auth/caller.hpp"
#include "auth/expiring_cache.hpp"
#include "auth/kube_reviews.hpp"
#include "kube/api_client.hpp"

namespace sextant {

struct authentication {
  std::optional<caller> who;  // set when the token is good
  int status = 401;           // else 401 (no, or a bad, token) or 503 (the review failed)
  std::string message;
};

class authenticator {
 public:
  // Sends a review body to a path of the API server.
  using poster = std::function<boost::asio::awaitable<kube::http_reply>(std::string path, std::string body)>;

  authenticator(poster post, std::chrono::seconds ttl, std::size_t max_entries = 4096)
      : post_(std::move(post)), verdicts_(ttl, max_entries) {}

  // `authorization` is the header's value ("Bearer <token>"), empty when there is none.
  boost::asio::awaitable<authentication> authenticate(std::string authorization);

  std::size_t cached() const { return verdicts_.size(); }
  std::uint64_t reviews() const { return reviews_; }

 private:
  poster post_;
  expiring_cache<token_verdict> verdicts_;
  std::uint64_t reviews_ = 0;
};

}  // namespace sextant
