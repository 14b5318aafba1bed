#include "auth/authorizer.hpp"

#include <algorithm>
#include <memory>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>

#include "auth/kube_reviews.hpp"
#include "kube/api_status.hpp"
#include "kube/asio.hpp"

namespace sextant {
namespace {
// Reviews in flight at once for one request: a list over many namespaces asks about each.
constexpr std::size_t reviews_in_flight = 16;
}  // namespace

std::optional<kept_decision> authorizer::known(const caller& who, const access_check& check) {
  if (!last_caller_ || !(last_caller_->first == who)) {
    last_caller_.emplace(who, caller_key(who));
  }
  kept_decision::time until{};
  const bool* decision =
      decisions_.find(access_key(last_caller_->second, check), std::chrono::steady_clock::now(), &until);
  return decision ? std::optional<kept_decision>(kept_decision(*decision, until)) : std::nullopt;
}

boost::asio::awaitable<undecided> authorizer::review(caller who, access_check check) {
  if (std::optional<std::chrono::seconds> wait = gate_.refusal(std::chrono::steady_clock::now())) {
    co_return undecided{"the permission to " + check.words() +
                            " could not be checked: " + not_sent_because(gate_, "SubjectAccessReviews") +
                            "; try again in " + std::to_string(wait->count()) + " s",
                        *wait};
  }
  ++reviews_;
  kube::http_reply reply;
  try {
    reply = co_await post_(access_review_path, access_review_body(who, check));
  } catch (...) {
    gate_.failed(std::chrono::steady_clock::now(), std::nullopt, "the SubjectAccessReview failed");
    throw;
  }
  access_verdict verdict = read_access_review(reply.status, reply.body, reply.error);
  if (!verdict.allowed) {
    const std::chrono::seconds wait =
        gate_.failed(std::chrono::steady_clock::now(), kube::parse_retry_after(reply.retry_after), verdict.message);
    if (std::uint64_t held_back = 0; failures_logged_.allow(std::chrono::steady_clock::now(), held_back)) {
      spdlog::warn("SubjectAccessReview ({} may {}) failed: {}{}", who.user, check.words(), verdict.message,
                   log_throttle::held_back_note(held_back));
    }
    co_return undecided{"the permission to " + check.words() + " could not be checked: " + verdict.message, wait};
  }
  const auto now = std::chrono::steady_clock::now();
  gate_.answered(now);
  // A server just back may not have read RBAC yet: its "no" answers this request only.
  decisions_.put(access_key(who, check), *verdict.allowed, now,
                 !*verdict.allowed && gate_.settling(now) ? std::optional(review_gate::settling_keep) : std::nullopt);
  co_return undecided{};
}

boost::asio::awaitable<undecided> authorizer::decide(caller who, std::vector<access_check> checks) {
  // The reviews of one batch run side by side; a timer wakes this coroutine when the last ends.
  struct batch {
    explicit batch(const boost::asio::any_io_executor& executor) : done(executor) {}
    boost::asio::steady_timer done;
    std::size_t running = 0;
    undecided failure;
  };
  for (std::size_t from = 0; from < checks.size(); from += reviews_in_flight) {
    auto shared = std::make_shared<batch>(executor_);
    shared->done.expires_at(boost::asio::steady_timer::time_point::max());
    const std::size_t until = std::min(checks.size(), from + reviews_in_flight);
    for (std::size_t i = from; i < until; ++i) {
      if (known(who, checks[i])) {
        continue;
      }
      ++shared->running;
      boost::asio::co_spawn(executor_, review(who, checks[i]),
                            [shared](const std::exception_ptr& failure, undecided outcome) {
                              if (failure) {
                                outcome = {"a permission check failed", std::chrono::seconds(1)};
                              }
                              if (!outcome.error.empty() && shared->failure.error.empty()) {
                                shared->failure.error = std::move(outcome.error);
                              }
                              shared->failure.retry_after = std::max(shared->failure.retry_after, outcome.retry_after);
                              if (--shared->running == 0) {
                                shared->done.cancel();
                              }
                            });
    }
    if (shared->running > 0) {
      co_await shared->done.async_wait(kube::use_tuple);
    }
    if (!shared->failure.error.empty()) {
      co_return shared->failure;
    }
  }
  co_return undecided{};
}

}  // namespace sextant
