#pragma once
// client-go's seam for reflector tests: a lister-watcher whose answers the test scripts.
// Lists and watch opens are answered from queues (waiting while a queue is empty); an open
// watch hands out the events the test pushes, then the end the test chooses.
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "kube/lister_watcher.hpp"

namespace sextant::kube::testing {

// The test's end of one watch stream.
struct fake_channel {
  explicit fake_channel(net::any_io_executor executor) : wake(executor, std::chrono::steady_clock::time_point::max()) {}
  std::deque<watch_item> items;
  net::steady_timer wake;
  bool cancelled = false;

  void push(watch_item item) {
    items.push_back(std::move(item));
    wake.cancel();
  }
  void event(const std::string& type, json object) {
    push(watch_item{watch_item::kind::event, decoded_watch_event{type, pack(object)}, {}});
  }
  void end(watch_item::kind how, api_error error = {}) { push(watch_item{how, {}, std::move(error)}); }
};

struct fake_script {
  explicit fake_script(net::any_io_executor e) : executor(e), wake(e, std::chrono::steady_clock::time_point::max()) {}

  net::any_io_executor executor;
  net::steady_timer wake;
  std::deque<list_result> lists;
  // Each watch open: a channel to stream from, or an error.
  std::deque<std::pair<std::shared_ptr<fake_channel>, api_error>> watches;
  std::vector<list_request> list_calls;
  std::vector<watch_request> watch_calls;
  bool cancelled = false;

  void answer_list(list_result result) {
    lists.push_back(std::move(result));
    wake.cancel();
  }
  void answer_list_page(decoded_list page) { answer_list(list_result{std::move(page), {}}); }
  void refuse_list(int code, std::string reason, std::string message = {}) {
    answer_list(list_result{std::nullopt, api_error{code, std::move(reason), std::move(message)}});
  }
  std::shared_ptr<fake_channel> answer_watch() {
    auto channel = std::make_shared<fake_channel>(executor);
    watches.emplace_back(channel, api_error{});
    wake.cancel();
    return channel;
  }
  void refuse_watch(int code, std::string reason, std::string message = {}) {
    watches.emplace_back(nullptr, api_error{code, std::move(reason), std::move(message)});
    wake.cancel();
  }
};

class fake_stream final : public watch_stream {
 public:
  explicit fake_stream(std::shared_ptr<fake_channel> channel) : channel_(std::move(channel)) {}
  net::awaitable<watch_item> next() override {
    while (channel_->items.empty()) {
      if (channel_->cancelled) {
        co_return watch_item{watch_item::kind::failed, {}, api_error{0, {}, "cancelled"}};
      }
      channel_->wake.expires_at(std::chrono::steady_clock::time_point::max());
      co_await channel_->wake.async_wait(use_tuple);
    }
    watch_item item = std::move(channel_->items.front());
    channel_->items.pop_front();
    co_return item;
  }

 private:
  std::shared_ptr<fake_channel> channel_;
};

class fake_lister_watcher final : public lister_watcher {
 public:
  explicit fake_lister_watcher(std::shared_ptr<fake_script> script) : script_(std::move(script)) {}

  net::awaitable<list_result> list(list_request request) override {
    script_->list_calls.push_back(request);
    while (script_->lists.empty()) {
      if (script_->cancelled) {
        co_return list_result{std::nullopt, api_error{0, {}, "cancelled"}};
      }
      script_->wake.expires_at(std::chrono::steady_clock::time_point::max());
      co_await script_->wake.async_wait(use_tuple);
    }
    list_result result = std::move(script_->lists.front());
    script_->lists.pop_front();
    co_return result;
  }

  net::awaitable<watch_open> watch(watch_request request) override {
    script_->watch_calls.push_back(request);
    while (script_->watches.empty()) {
      if (script_->cancelled) {
        co_return watch_open{nullptr, api_error{0, {}, "cancelled"}};
      }
      script_->wake.expires_at(std::chrono::steady_clock::time_point::max());
      co_await script_->wake.async_wait(use_tuple);
    }
    auto [channel, error] = std::move(script_->watches.front());
    script_->watches.pop_front();
    if (!channel) {
      co_return watch_open{nullptr, error};
    }
    current_ = channel;
    co_return watch_open{std::make_unique<fake_stream>(channel), {}};
  }

  void cancel() override {
    script_->cancelled = true;
    script_->wake.cancel();
    if (auto channel = current_.lock()) {
      channel->cancelled = true;
      channel->wake.cancel();
    }
  }

 private:
  std::shared_ptr<fake_script> script_;
  std::weak_ptr<fake_channel> current_;
};

}  // namespace sextant::kube::testing
