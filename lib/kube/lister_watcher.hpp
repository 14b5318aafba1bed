#pragma once
// The seam between a reflector and the API server (client-go's ListerWatcher): list one
// page, open one watch. The real one speaks HTTPS; tests script a fake.
//
// Everything comes back as values: a page or an api_error, a stream or an api_error, an event
// or the reason the stream ended.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ingest/json_decoder.hpp"
#include "kube/api_status.hpp"
#include "kube/asio.hpp"

namespace sextant::kube {

struct list_request {
  std::string resource_version;  // "0": any cached state; "": the latest, from etcd
  std::string continue_token;
  std::size_t limit = 0;  // 0: no limit
};

struct list_result {
  std::optional<decoded_list> page;
  api_error error;
};

struct watch_request {
  std::string resource_version;
  bool send_initial_events = false;        // a streaming list: initial ADDEDs, then a bookmark
  std::chrono::seconds timeout{300};       // asked of the server (timeoutSeconds)
  std::chrono::seconds idle_timeout{330};  // silence after which the client gives up
};

struct watch_item {
  enum class kind {
    event,   // `event` holds one decoded event
    closed,  // the server ended the watch (its timeout): watch again from the last version
    failed,  // the connection broke or a line could not be read
    idle,    // nothing arrived within the idle timeout
  };
  kind what = kind::closed;
  decoded_watch_event event;
  api_error error;
};

class watch_stream {
 public:
  virtual ~watch_stream() = default;
  virtual net::awaitable<watch_item> next() = 0;
};

struct watch_open {
  std::unique_ptr<watch_stream> stream;  // null on failure
  api_error error;
};

class lister_watcher {
 public:
  virtual ~lister_watcher() = default;
  virtual net::awaitable<list_result> list(list_request request) = 0;
  virtual net::awaitable<watch_open> watch(watch_request request) = 0;
  // Aborts what is in flight; the awaiting call returns an error soon after.
  virtual void cancel() = 0;
};

}  // namespace sextant::kube
