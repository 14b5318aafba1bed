#include "app/probe_server.hpp"

#include <boost/asio/post.hpp>

namespace sextant {
namespace asio = boost::asio;

namespace {

api_response plain(std::string body) {
  api_response ok;
  ok.content_type = "text/plain; charset=utf-8";
  ok.body = std::move(body);
  return ok;
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + " s";
}

}  // namespace

void probe_status::publish_readiness(api_response readiness) {
  std::lock_guard lock(mutex_);
  readiness_ = std::move(readiness);
}

std::optional<probe_status::steady::duration> probe_status::silent_for(steady::time_point now) const {
  steady::rep beat = heartbeat_.load(std::memory_order_relaxed);
  if (beat == 0) {
    return std::nullopt;
  }
  return now - steady::time_point(steady::duration(beat));
}

api_response probe_status::healthz(steady::time_point now, steady::duration stall_limit) const {
  std::optional<steady::duration> silent = silent_for(now);
  if (!silent) {
    // Start-up (a snapshot's load) runs before the loop serves: that is not a hang.
    return plain("ok\n");
  }
  if (*silent > stall_limit) {
    return error_response(503, "Unavailable", "the event loop has not run for " + seconds_text(*silent));
  }
  return plain("ok\n");
}

api_response probe_status::readyz(steady::time_point now, steady::duration stall_limit) const {
  std::optional<steady::duration> silent = silent_for(now);
  if (silent && *silent > stall_limit) {
    return error_response(503, "Unavailable", "the event loop has not run for " + seconds_text(*silent));
  }
  std::lock_guard lock(mutex_);
  if (!readiness_) {
    return error_response(503, "Unavailable", "starting: nothing read yet");
  }
  return *readiness_;
}

probe_server::probe_server(http_server_options options, std::shared_ptr<const probe_status> status)
    : status_(std::move(status)) {
  server_ = std::make_unique<http_server>(
      io_, std::move(options), [this](api_request request) -> asio::awaitable<api_response> {
        const bool read = request.method == "GET" || request.method == "HEAD";
        std::string path = request.target.substr(0, request.target.find('?'));
        const auto now = std::chrono::steady_clock::now();
        if (path != "/healthz" && path != "/readyz") {
          co_return error_response(404, "NotFound", "this port answers only /healthz and /readyz");
        }
        if (!read) {
          api_response refused =
              error_response(405, "MethodNotAllowed", request.method + " is not allowed here; use GET or HEAD");
          refused.headers.emplace_back("Allow", "GET, HEAD");
          co_return refused;
        }
        co_return path == "/healthz" ? status_->healthz(now, stall_limit) : status_->readyz(now, stall_limit);
      });
}

probe_server::~probe_server() {
  stop();
}

void probe_server::start() {
  server_->start();
  thread_ = std::thread([this] { io_.run(); });
}

void probe_server::stop() {
  if (!thread_.joinable()) {
    return;
  }
  asio::post(io_, [this] { server_->stop([this] { io_.stop(); }); });
  thread_.join();
}

probe_publisher::probe_publisher(asio::io_context& io, std::shared_ptr<probe_status> status,
                                 std::function<api_response()> readiness)
    : timer_(io), status_(std::move(status)), readiness_(std::move(readiness)) {}

void probe_publisher::start() {
  publish_and_arm();
}

void probe_publisher::stop() {
  stopped_ = true;
  timer_.cancel();
}

void probe_publisher::publish_and_arm() {
  if (stopped_) {
    return;
  }
  status_->beat(std::chrono::steady_clock::now());
  status_->publish_readiness(readiness_());
  timer_.expires_after(probe_server::publish_interval);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) {
      publish_and_arm();
    }
  });
}

}  // namespace sextant
