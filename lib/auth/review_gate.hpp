#pragma once
// How many reviews (TokenReviews, SubjectAccessReviews) are sent to an API server that may be
// failing. Every request without a cached verdict needs one, so without a gate an outage turns
// each caller's retries into reviews that cannot be answered: a storm against a server that is
// down or shedding load, and a connection held by each review while it hangs.
//
// While reviews are answered, any number go out, up to `max_in_flight` at once (a server that
// accepts and never answers ties up that many connections, no more, each for the review
// timeout). Once one fails for the server's sake (no answer, an error status, an unreadable
// answer), the server counts as failing: one review at a time goes out as a probe, no sooner
// than `pause` after the last failure (the server's Retry-After when it sent one, capped), and
// every other review is refused at once with how long to wait. The first review answered ends
// it. Nothing here caches a verdict: a refused review is a 503, never a 401 or 403.
//
// Pure: the time comes in from the caller, so tests drive it. One per kind of review.
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace sextant {

// When the API server last answered reviews again after failing them. Shared by the gates of
// every kind of review: a server that has just started has read neither RBAC nor service
// accounts, whichever kind of review found it down (in an outage callers' TokenReviews fail
// first, and their SubjectAccessReviews are first sent to the server once it is back).
struct review_recovery {
  std::optional<std::chrono::steady_clock::time_point> last;
};

class review_gate {
 public:
  using time = std::chrono::steady_clock::time_point;

  explicit review_gate(std::size_t max_in_flight = 64, std::chrono::seconds pause = std::chrono::seconds(1),
                       std::chrono::seconds longest_pause = std::chrono::seconds(5),
                       std::shared_ptr<review_recovery> recovery = std::make_shared<review_recovery>())
      : max_in_flight_(max_in_flight),
        pause_(pause),
        longest_pause_(longest_pause),
        recovery_(recovery ? std::move(recovery) : std::make_shared<review_recovery>()) {}

  // nullopt: send the review, then report it with answered() or failed(). Otherwise it is not
  // to be sent, and the caller should come back after the seconds returned (at least 1).
  std::optional<std::chrono::seconds> refusal(time now);
  // The review sent got a usable answer: the server answers again.
  void answered(time now);
  // The review sent got none; `asked` is the server's Retry-After, if it sent one. Returns how
  // long the caller should wait (at least 1 s).
  std::chrono::seconds failed(time now, std::optional<std::chrono::seconds> asked, std::string why);

  bool failing() const { return failing_; }
  // Whether the server answered again only moments ago (within `settle` of the first answer after
  // failures, of this kind of review or another sharing the recovery). An API server that has just started answers
  // reviews before its informers have read RBAC and service accounts: its "no" may be a "not yet", so a negative
  // verdict then is given to the caller but kept only for `settling_keep` (the request that asked), not the cache's
  // time. A "yes" is kept as always: data not read yet never grants more.
  bool settling(time now) const { return recovery_->last && now < *recovery_->last + settle_; }
  static constexpr std::chrono::seconds settling_keep{1};
  // Why the last review failed ("" while the server answers).
  const std::string& last_failure() const { return last_failure_; }
  std::size_t in_flight() const { return in_flight_; }

 private:
  std::size_t max_in_flight_;
  std::chrono::seconds pause_;
  std::chrono::seconds longest_pause_;
  std::size_t in_flight_ = 0;
  bool failing_ = false;
  bool probe_out_ = false;
  time next_probe_{};
  std::string last_failure_;
  std::chrono::seconds settle_ = std::chrono::seconds(10);
  std::shared_ptr<review_recovery> recovery_;
};

// Why a review was not sent, for the caller's 503: `kind` is "TokenReviews" or the like.
std::string not_sent_because(const review_gate& gate, const std::string& kind);

}  // namespace sextant
