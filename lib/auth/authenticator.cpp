#include "auth/authenticator.hpp"

#include <spdlog/spdlog.h>

#include "auth/token_hash.hpp"
#include "kube/api_status.hpp"

namespace sextant {

boost::asio::awaitable<authentication> authenticator::authenticate(std::string authorization, std::string client) {
  authentication out;
  std::optional<std::string_view> token = bearer_token(authorization);
  if (!token) {
    out.message = authorization.empty() ? "this API needs a bearer token: send Authorization: Bearer <token>"
                                        : "the Authorization header holds no bearer token";
    co_return out;
  }
  const std::string key = token_hash(*token);
  const auto now = std::chrono::steady_clock::now();
  const token_verdict* known = verdicts_.find(key, now);
  token_verdict fresh;
  if (known == nullptr) {
    if (!budget_.take(client, now, out.retry_after)) {
      out.status = 429;
      out.message = "too many invalid bearer tokens from this client; try again in " +
                    std::to_string(out.retry_after.count()) + " s";
      co_return out;
    }
    if (std::optional<std::chrono::seconds> wait = gate_.refusal(now)) {
      budget_.give_back(client);  // nothing was asked, so nothing is charged
      out.status = 503;
      out.retry_after = *wait;
      out.message = "the token could not be checked: " + not_sent_because(gate_, "TokenReviews") + "; try again in " +
                    std::to_string(wait->count()) + " s";
      co_return out;
    }
    ++reviews_;
    std::string body = token_review_body(std::string(*token));
    kube::http_reply reply;
    try {
      reply = co_await post_(token_review_path, std::move(body));
    } catch (...) {
      gate_.failed(std::chrono::steady_clock::now(), std::nullopt, "the TokenReview failed");
      throw;
    }
    fresh = read_token_review(reply.status, reply.body, reply.error);
    if (!fresh.answered || fresh.authenticated) {
      budget_.give_back(client);  // only invalid tokens are charged
    }
    if (!fresh.answered) {
      out.retry_after =
          gate_.failed(std::chrono::steady_clock::now(), kube::parse_retry_after(reply.retry_after), fresh.message);
      if (std::uint64_t held_back = 0; failures_logged_.allow(std::chrono::steady_clock::now(), held_back)) {
        spdlog::warn("TokenReview failed: {}{}", fresh.message, log_throttle::held_back_note(held_back));
      }
      out.status = 503;
      out.message = "the token could not be checked: " + fresh.message;
      co_return out;
    }
    const auto answered_at = std::chrono::steady_clock::now();
    gate_.answered(answered_at);
    // A server just back may not have read its service accounts yet: its "no" answers this
    // request only.
    verdicts_.put(
        key, fresh, answered_at,
        !fresh.authenticated && gate_.settling(answered_at) ? std::optional(review_gate::settling_keep) : std::nullopt);
    known = &fresh;
  }
  if (!known->authenticated) {
    out.message = "the token is not valid" + (known->message.empty() ? std::string() : ": " + known->message);
    co_return out;
  }
  out.who = known->who;
  out.status = 200;
  co_return out;
}

}  // namespace sextant
