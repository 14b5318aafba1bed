#include "kube/document_poller.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "kube/api_status.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant::kube {

document_poller::document_poller(net::any_io_executor executor, std::vector<polled_document> wanted,
                                 const object_store& store, const served_kinds& served, polled_documents& documents,
                                 const clock& wall, fetch_function fetch, poller_options options)
    : executor_(std::move(executor)),
      wanted_(std::move(wanted)),
      store_(store),
      served_(served),
      documents_(documents),
      wall_(wall),
      fetch_(std::move(fetch)),
      options_(options),
      timer_(executor_) {}

document_poller::~document_poller() {
  *alive_ = false;
  stop();
}

void document_poller::start() {
  if (started_ || wanted_.empty()) {
    return;
  }
  started_ = true;
  spawn_supervised(
      executor_, "document-poller", [this, alive = alive_] { return run(this, alive); }, on_task_failure::restart);
}

void document_poller::stop() {
  stopped_ = true;
  timer_.cancel();
}

std::string document_poller::target(const polled_document& wanted, const std::string& version,
                                    const document_key& key) {
  std::string path = "/apis/" + wanted.group + "/" + version;
  if (wanted.namespaced) {
    path += "/namespaces/" + key.namespace_;
  }
  return path + "/" + wanted.resource + "/" + key.name + "/" + wanted.subresource;
}

std::string document_poller::served_version(const polled_document& wanted) const {
  const std::vector<std::string> served = served_.group_versions(wanted.group);
  for (const std::string& version : wanted.versions) {
    if (std::find(served.begin(), served.end(), version) != served.end()) {
      return version;
    }
  }
  return {};
}

void document_poller::note_failure(const polled_document& wanted, const std::string& error) {
  std::string& last = last_error_[wanted.id];
  if (last != error) {
    spdlog::warn("live: cannot read {}: {}", wanted.id, error);
    last = error;
  }
}

net::awaitable<void> document_poller::run(document_poller* self, std::shared_ptr<bool> alive) {
  while (*alive && !self->stopped_) {
    // Not `if (!co_await ...)`: GCC 12 mis-destroys temporaries of a co_await in a condition.
    const bool go_on = co_await poll_due(self, alive);
    if (!go_on) {
      co_return;
    }
    co_await sleep_for(self->timer_, self->options_.tick);
  }
}

net::awaitable<bool> document_poller::poll_due(document_poller* self, const std::shared_ptr<bool>& alive) {
  // Copies, because the loop suspends and `self` may change meanwhile.
  const std::vector<polled_document> wanted = self->wanted_;
  if (self->served_.empty()) {
    co_return true;  // discovery not read yet: "not served" would be a guess, so nothing is said
  }
  for (const polled_document& document : wanted) {
    const std::string version = self->served_version(document);
    if (version.empty()) {
      self->documents_.erase_all(document.id);  // the API is gone (or never was)
      // Registered but not answering is not "not served": views say which it is.
      self->documents_.set_missing_all(
          document.id, self->served_.unanswered(document.group)
                           ? "the API server lists " + document.group +
                                 " but its server does not answer (an aggregated API whose Service is down)"
                           : "the cluster does not serve " + document.group);
      continue;
    }
    self->documents_.set_missing_all(document.id, {});
    const auto now = std::chrono::steady_clock::now();
    for (const document_key& key : self->documents_.asked_since(document.id, now - self->options_.forget_after)) {
      if (!self->store_.get(document.of, key.namespace_, key.name)) {
        self->documents_.erase(key);
        continue;
      }
      auto last = self->last_read_.find(key);
      if (last != self->last_read_.end() && now - last->second < document.interval) {
        continue;
      }
      self->last_read_[key] = now;
      const std::string path = target(document, version, key);
      http_reply reply = co_await self->fetch_(path);
      if (!*alive || self->stopped_) {
        co_return false;
      }
      ++self->reads_;
      if (reply.status != 200) {
        const std::string error =
            "GET " + path + ": " + reply_error(reply.status, reply.body, reply.retry_after, reply.error).describe();
        self->documents_.erase(key);
        self->documents_.set_missing(key, error);
        self->note_failure(document, error);
        continue;
      }
      json body = json::parse(reply.body, nullptr, false);
      if (body.is_discarded() || !body.is_object()) {
        const std::string error = "GET " + path + ": the answer is not a JSON object";
        self->documents_.erase(key);
        self->documents_.set_missing(key, error);
        self->note_failure(document, error);
        continue;
      }
      self->documents_.set(key, std::move(body), self->wall_.now());
      self->last_error_.erase(document.id);
    }
  }
  const auto forget_before = std::chrono::steady_clock::now() - self->options_.forget_after;
  std::erase_if(self->last_read_, [forget_before](const auto& entry) { return entry.second < forget_before; });
  co_return true;
}

}  // namespace sextant::kube
