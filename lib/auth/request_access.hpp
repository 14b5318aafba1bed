#pragma once
// What one request may see: its caller, and the access decisions known for it.
//
// The router stays synchronous: it asks `may`, which answers from the decision cache, or
// answers "not known yet" and notes the question. The server then asks the API server every
// noted question at once (SubjectAccessReviews, a coroutine) and runs the request again; the
// views are cached, so the second run costs a cache lookup. See app::answer.
#include <functional>
#include <optional>
#include <vector>

#include "auth/access_check.hpp"
#include "auth/caller.hpp"

namespace sextant {

class request_access {
 public:
  // The known decision for a question, or nullopt when none is cached.
  using lookup = std::function<std::optional<bool>(const caller&, const access_check&)>;

  request_access(caller who, lookup known) : who_(std::move(who)), known_(std::move(known)) {}

  const caller& who() const { return who_; }
  // The decision, or nullopt (the question is noted) when it is not known yet.
  std::optional<bool> may(const access_check& check);
  // True once every question asked has a decision.
  bool decided() const { return pending_.empty(); }
  // The questions still without a decision; clears them.
  std::vector<access_check> take_pending();

 private:
  caller who_;
  lookup known_;
  std::vector<access_check> pending_;
};

}  // namespace sextant
