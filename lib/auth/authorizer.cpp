#include "auth/authorizer.hpp"

#include <algorithm>
#include <memory>

#include <spdlog/spdlog.h>
#include <boost/asio/steady_timer.hpp>

#include "auth/kube_reviews.hpp"
#include "kube/api_status.hpp"
#include "kube/asio.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant {
namespace {
// Reviews in flight at once for one request (a list over many namespaces asks about each), and
// at once to renew decisions still kept.
constexpr std::size_t reviews_in_flight = 16;
// A decision still used is asked again once a quarter of its time is left: 2.5 s of the default
// 10 s, ample for the 16-at-a-time renewal of a caller's 500 namespaces (a review takes
// milliseconds), and a caller who keeps asking costs 4/3 of a review per question per 10 s.
std::chrono::steady_clock::duration renewal_lead(std::chrono::seconds ttl) {
  return std::chrono::steady_clock::duration(ttl) / 4;
}
}  // namespace

// A review sent and not yet answered; every request that needs its answer waits on `answered`.
struct authorizer::in_flight {
  explicit in_flight(const boost::asio::any_io_executor& executor) : answered(executor) {
    answered.expires_at(boost::asio::steady_timer::time_point::max());
  }
  boost::asio::steady_timer answered;
  std::optional<undecided> outcome;
};

authorizer::authorizer(boost::asio::any_io_executor executor, poster post, std::chrono::seconds ttl,
                       std::size_t max_entries, review_gate gate, clock now)
    : executor_(std::move(executor)),
      post_(std::move(post)),
      ttl_(ttl),
      max_entries_(max_entries),
      decisions_(ttl, max_entries),
      gate_(std::move(gate)),
      now_(std::move(now)) {}

std::string authorizer::key_of(const caller& who, const access_check& check) {
  if (!last_caller_ || !(last_caller_->first == who)) {
    last_caller_.emplace(who, caller_key(who));
  }
  return access_key(last_caller_->second, check);
}

std::optional<kept_decision> authorizer::known(const caller& who, const access_check& check) {
  const time now = now_();
  std::string key = key_of(who, check);
  time until{};
  decision* kept = decisions_.find(key, now, &until);
  if (kept == nullptr) {
    return std::nullopt;
  }
  if (now >= kept->renew_from) {
    kept->renew_from = time::max();
    queue_renewal(who, check, key, now);
  }
  return kept_decision(kept->allowed, std::min(until, kept->renew_from));
}

void authorizer::queue_renewal(const caller& who, const access_check& check, const std::string& key, time now) {
  if (renewals_.size() >= max_entries_) {
    return;  // kept until it ends, then asked as a new question
  }
  renewals_.push_back(renewal{who, check, key, now});
  if (renewers_ < reviews_in_flight) {
    ++renewers_;
    spawn_supervised(
        executor_, "access renewal", [this] { return renew(); }, on_task_failure::log_only);
  }
}

boost::asio::awaitable<void> authorizer::renew() {
  try {
    while (!renewals_.empty()) {
      renewal next = std::move(renewals_.front());
      renewals_.pop_front();
      if (in_flight_.contains(next.key)) {
        continue;  // on its way already: its answer renews the decision
      }
      ++renewals_sent_;
      // Its outcome reaches no request: the kept decision answers until it ends, and if the
      // review failed the next request after that asks again.
      co_await join(send(std::move(next.who), std::move(next.check), std::move(next.key), next.asked_at));
    }
  } catch (...) {
    --renewers_;  // a renewer that failed must not hold its place for good; the supervisor logs why
    throw;
  }
  --renewers_;
}

std::shared_ptr<authorizer::in_flight> authorizer::send(caller who, access_check check, std::string key,
                                                        time asked_at) {
  auto flight = std::make_shared<in_flight>(executor_);
  in_flight_.insert_or_assign(key, flight);
  spawn_supervised(
      executor_, "access review",
      [this, who = std::move(who), check = std::move(check), key = std::move(key), asked_at, flight]() mutable {
        return review(std::move(who), std::move(check), std::move(key), asked_at, flight);
      },
      on_task_failure::log_only);
  return flight;
}

boost::asio::awaitable<undecided> authorizer::join(std::shared_ptr<in_flight> flight) {
  if (!flight->outcome) {
    co_await flight->answered.async_wait(kube::use_tuple);
  }
  co_return *flight->outcome;
}

boost::asio::awaitable<undecided> authorizer::review(caller who, access_check check, std::string key, time asked_at,
                                                     std::shared_ptr<in_flight> flight) {
  undecided outcome;
  try {
    outcome = co_await ask(who, check, key, asked_at);
  } catch (...) {
    outcome = {"the permission to " + check.words() + " could not be checked: the SubjectAccessReview failed",
               std::chrono::seconds(1)};
  }
  if (auto it = in_flight_.find(key); it != in_flight_.end() && it->second == flight) {
    in_flight_.erase(it);
  }
  flight->outcome = outcome;
  flight->answered.cancel();
  co_return outcome;
}

boost::asio::awaitable<undecided> authorizer::ask(const caller& who, const access_check& check, const std::string& key,
                                                  time asked_at) {
  if (std::optional<std::chrono::seconds> wait = gate_.refusal(now_())) {
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
    gate_.failed(now_(), std::nullopt, "the SubjectAccessReview failed");
    throw;
  }
  access_verdict verdict = read_access_review(reply.status, reply.body, reply.error);
  if (!verdict.allowed) {
    const std::chrono::seconds wait = gate_.failed(now_(), kube::parse_retry_after(reply.retry_after), verdict.message);
    if (std::uint64_t held_back = 0; failures_logged_.allow(now_(), held_back)) {
      spdlog::warn("SubjectAccessReview ({} may {}) failed: {}{}", who.user, check.words(), verdict.message,
                   log_throttle::held_back_note(held_back));
    }
    co_return undecided{"the permission to " + check.words() + " could not be checked: " + verdict.message, wait};
  }
  const time now = now_();
  gate_.answered(now);
  if (!*verdict.allowed && gate_.settling(now)) {
    // A server just back may not have read RBAC yet: its "no" answers this request only.
    decisions_.put(key, decision{false, time::max()}, now, review_gate::settling_keep);
    co_return undecided{};
  }
  // Kept from when it was asked, so that the questions asked together end together; but for at
  // least half its time from the answer, should the answer have been slow in coming.
  const time ends = std::max(asked_at + ttl_, now + std::chrono::steady_clock::duration(ttl_) / 2);
  decisions_.put(key, decision{*verdict.allowed, ends - renewal_lead(ttl_)}, now, ends - now);
  co_return undecided{};
}

boost::asio::awaitable<undecided> authorizer::decide(caller who, std::vector<access_check> checks) {
  const time asked_at = now_();
  for (std::size_t from = 0; from < checks.size(); from += reviews_in_flight) {
    // The batch's reviews are all sent (or joined, when on their way already) before any is
    // waited for, so they run side by side.
    std::vector<std::shared_ptr<in_flight>> batch;
    for (std::size_t i = from; i < std::min(checks.size(), from + reviews_in_flight); ++i) {
      if (known(who, checks[i])) {
        continue;
      }
      std::string key = key_of(who, checks[i]);
      auto sent = in_flight_.find(key);
      batch.push_back(sent != in_flight_.end() ? sent->second : send(who, checks[i], std::move(key), asked_at));
    }
    undecided failure;
    for (std::shared_ptr<in_flight>& flight : batch) {
      undecided outcome = co_await join(std::move(flight));
      if (!outcome.error.empty() && failure.error.empty()) {
        failure.error = std::move(outcome.error);
      }
      failure.retry_after = std::max(failure.retry_after, outcome.retry_after);
    }
    if (!failure.error.empty()) {
      co_return failure;
    }
  }
  co_return undecided{};
}

}  // namespace sextant
