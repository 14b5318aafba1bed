#pragma once
// What one request may see: its caller, and the access decisions known for it.
//
// The router stays synchronous: it asks `may`, which answers from the decision cache, or
// answers "not known yet" and notes the question. The server then asks the API server every
// noted question at once (SubjectAccessReviews, a coroutine) and runs the request again; the
// views are cached, so the second run costs a cache lookup. See app::answer.
//
// What the router decides from many decisions (a list's cut asks one per namespace) is kept in
// the cut memo the request carries, for as long as the decisions it was made from hold (or until
// they are due to be renewed, authorizer.hpp): a caller polling a list asks its questions once per
// decision time, not once per request.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "auth/access_check.hpp"
#include "auth/caller.hpp"

namespace sextant {

class cut_memo;

// A known decision, and until when what is decided from it holds (when the authorizer's cache
// lets it go, or earlier, when it is due to be asked again).
struct kept_decision {
  using time = std::chrono::steady_clock::time_point;
  // Not explicit: a decision known for good (a test's, a fixed policy's) is its bool.
  kept_decision(bool allowed_, time until_ = time::max()) : allowed(allowed_), until(until_) {}  // NOLINT
  bool allowed = false;
  time until = time::max();
};

class request_access {
 public:
  // The known decision for a question, or nullopt when none is cached.
  using lookup = std::function<std::optional<kept_decision>(const caller&, const access_check&)>;

  request_access(caller who, lookup known, cut_memo* memo = nullptr)
      : who_(std::move(who)), known_(std::move(known)), memo_(memo) {}

  const caller& who() const { return who_; }
  // The decision, or nullopt (the question is noted) when it is not known yet.
  std::optional<bool> may(const access_check& check);
  // True once every question asked has a decision.
  bool decided() const { return pending_.empty(); }
  // The questions still without a decision; clears them.
  std::vector<access_check> take_pending();

  // The earliest time a decision `may` gave stops holding: what is decided from them holds
  // until then.
  kept_decision::time decisions_hold_until() const { return hold_until_; }
  // The caller as a key (caller_key), made once a request.
  const std::string& caller_part();
  // Where cuts decided for this caller are kept between requests; null: nowhere.
  cut_memo* memo() const { return memo_; }

 private:
  caller who_;
  lookup known_;
  cut_memo* memo_ = nullptr;
  std::vector<access_check> pending_;
  kept_decision::time hold_until_ = kept_decision::time::max();
  std::optional<std::string> caller_part_;
};

}  // namespace sextant
