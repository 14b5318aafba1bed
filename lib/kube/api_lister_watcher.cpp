#include "kube/api_lister_watcher.hpp"

namespace sextant::kube {

std::string resource_target::collection_path() const {
  std::string path = type.group.empty() ? "/api/" + version : "/apis/" + type.group + "/" + version;
  if (!namespace_.empty()) {
    path += "/namespaces/" + namespace_;
  }
  return path + "/" + plural;
}

api_lister_watcher::api_lister_watcher(api_client& client, json_decoder& decoder, resource_target target)
    : client_(client), decoder_(decoder), target_(std::move(target)), cancel_(std::make_shared<cancel_token>()) {}

std::string list_target(const resource_target& target, const list_request& request) {
  std::string query;
  auto add = [&query](const char* name, const std::string& value) {
    query += (query.empty() ? "?" : "&") + std::string(name) + "=" + encode_query_value(value);
  };
  if (request.limit > 0) {
    add("limit", std::to_string(request.limit));
  }
  // A continued list carries its version in the token; the server refuses both.
  if (!request.continue_token.empty()) {
    add("continue", request.continue_token);
  } else if (!request.resource_version.empty()) {
    add("resourceVersion", request.resource_version);
  }
  if (!target.label_selector.empty()) {
    add("labelSelector", target.label_selector);
  }
  return target.collection_path() + query;
}

std::string watch_target(const resource_target& target, const watch_request& request) {
  std::string query = "?watch=1&allowWatchBookmarks=true&timeoutSeconds=" + std::to_string(request.timeout.count());
  if (request.send_initial_events) {
    query += "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan";
  }
  if (!request.resource_version.empty()) {
    query += "&resourceVersion=" + encode_query_value(request.resource_version);
  }
  if (!target.label_selector.empty()) {
    query += "&labelSelector=" + encode_query_value(target.label_selector);
  }
  return target.collection_path() + query;
}

net::awaitable<list_result> api_lister_watcher::list(list_request request) {
  request_options options;
  options.verb = "list";
  options.timeout = std::chrono::seconds(180);
  http_reply reply = co_await client_.get(list_target(target_, request), options, cancel_);
  list_result out;
  if (reply.status != 200) {
    out.error = reply_error(reply.status, reply.body, reply.retry_after, reply.error);
    co_return out;
  }
  decode_result<decoded_list> decoded = decoder_.decode_list(reply.body, target_.api_version(), target_.type.kind);
  if (!decoded.ok()) {
    out.error = api_error{0, "Undecodable", decoded.error};
    co_return out;
  }
  out.page = std::move(decoded.value);
  co_return out;
}

net::awaitable<watch_open> api_lister_watcher::watch(watch_request request) {
  request_options options;
  options.verb = "watch";
  options.body_limit = std::nullopt;  // a watch body has no end to limit
  options.timeout = std::chrono::seconds(60);
  stream_reply reply =
      co_await client_.open_stream(watch_target(target_, request), options, request.idle_timeout, cancel_);
  watch_open out;
  if (!reply.stream) {
    out.error = reply_error(reply.status, reply.body, reply.retry_after, reply.error);
    co_return out;
  }
  std::shared_ptr<body_stream> body(std::move(reply.stream));
  open_stream_ = body;
  if (cancel_->cancelled()) {
    body->cancel();
  }
  out.stream = std::make_unique<body_watch_stream>(std::move(body), decoder_, target_.type);
  co_return out;
}

void api_lister_watcher::cancel() {
  cancel_->cancel();
  if (auto body = open_stream_.lock()) {
    body->cancel();
  }
}

body_watch_stream::body_watch_stream(std::shared_ptr<body_stream> body, json_decoder& decoder, kind_key type)
    : body_(std::move(body)), decoder_(decoder), type_(std::move(type)) {}

net::awaitable<watch_item> body_watch_stream::next() {
  while (ready_.empty()) {
    if (ended_) {
      co_return watch_item{watch_item::kind::failed, {}, api_error{0, {}, "the watch stream has ended"}};
    }
    stream_chunk chunk = co_await body_->read();
    if (chunk.idle) {
      ended_ = true;
      co_return watch_item{watch_item::kind::idle, {}, api_error{0, "Timeout", chunk.error}};
    }
    if (!chunk.error.empty()) {
      ended_ = true;
      co_return watch_item{watch_item::kind::failed, {}, api_error{0, {}, chunk.error}};
    }
    if (chunk.done) {
      ended_ = true;
      if (splitter_.pending() > 0) {
        co_return watch_item{watch_item::kind::failed, {}, api_error{0, {}, "the watch stream ended inside an event"}};
      }
      co_return watch_item{watch_item::kind::closed, {}, {}};
    }
    for (std::string_view line : splitter_.feed(chunk.data)) {
      decode_result<decoded_watch_event> event = decoder_.decode_watch_event(line, type_);
      if (!event.ok()) {
        ready_.push_back(watch_item{watch_item::kind::failed, {}, api_error{0, "Undecodable", event.error}});
        break;  // what follows a line that could not be read cannot be trusted either
      }
      ready_.push_back(watch_item{watch_item::kind::event, std::move(*event.value), {}});
    }
    if (splitter_.overflowed()) {
      ready_.push_back(
          watch_item{watch_item::kind::failed, {}, api_error{0, {}, "a watch event exceeded the line limit"}});
    }
  }
  watch_item item = std::move(ready_.front());
  ready_.pop_front();
  if (item.what == watch_item::kind::failed) {
    ended_ = true;
    ready_.clear();
  }
  co_return item;
}

}  // namespace sextant::kube
