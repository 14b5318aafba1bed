#include "auth/authorizer.hpp"

#include <memory>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>

#include "auth/kube_reviews.hpp"
#include "kube/asio.hpp"

namespace sextant {
namespace {
// Reviews in flight at once for one request: a list over many namespaces asks about each.
constexpr std::size_t reviews_in_flight = 16;
}  // namespace

std::optional<bool> authorizer::known(const caller& who, const access_check& check) {
  const bool* decision = decisions_.find(access_key(who, check), std::chrono::steady_clock::now());
  return decision ? std::optional<bool>(*decision) : std::nullopt;
}

boost::asio::awaitable<std::string> authorizer::review(caller who, access_check check) {
  ++reviews_;
  kube::http_reply reply = co_await post_(access_review_path, access_review_body(who, check));
  access_verdict verdict = read_access_review(reply.status, reply.body, reply.error);
  if (!verdict.allowed) {
    if (std::uint64_t held_back = 0; failures_logged_.allow(std::chrono::steady_clock::now(), held_back)) {
      spdlog::warn("SubjectAccessReview ({} may {}) failed: {}{}", who.user, check.words(), verdict.message,
                   log_throttle::held_back_note(held_back));
    }
    co_return "the permission to " + check.words() + " could not be checked: " + verdict.message;
  }
  decisions_.put(access_key(who, check), *verdict.allowed, std::chrono::steady_clock::now());
  co_return std::string();
}

boost::asio::awaitable<std::string> authorizer::decide(caller who, std::vector<access_check> checks) {
  // The reviews of one batch run side by side; a timer wakes this coroutine when the last ends.
  struct batch {
    explicit batch(const boost::asio::any_io_executor& executor) : done(executor) {}
    boost::asio::steady_timer done;
    std::size_t running = 0;
    std::string error;
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
                            [shared](const std::exception_ptr& failure, std::string error) {
                              if (failure) {
                                error = "a permission check failed";
                              }
                              if (!error.empty() && shared->error.empty()) {
                                shared->error = std::move(error);
                              }
                              if (--shared->running == 0) {
                                shared->done.cancel();
                              }
                            });
    }
    if (shared->running > 0) {
      co_await shared->done.async_wait(kube::use_tuple);
    }
    if (!shared->error.empty()) {
      co_return shared->error;
    }
  }
  co_return std::string();
}

}  // namespace sextant
