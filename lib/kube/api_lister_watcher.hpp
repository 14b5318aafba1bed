#pragma once
// Lists and watches one resource of the API server over api_client, decoding straight into
// the kind's ingest profile (simdjson). One per reflector.
#include <deque>
#include <memory>
#include <string>

#include "ingest/json_decoder.hpp"
#include "kube/api_client.hpp"
#include "kube/line_splitter.hpp"
#include "kube/lister_watcher.hpp"
#include "store/object.hpp"

namespace sextant::kube {

// One resource in one version, cluster-wide.
struct resource_target {
  kind_key type;
  std::string version;  // "v1beta2"
  std::string plural;   // "workloads"
  std::string label_selector;
  std::string namespace_;  // set: only this namespace's objects

  std::string api_version() const { return type.group.empty() ? version : type.group + "/" + version; }
  // "/apis/kueue.x-k8s.io/v1beta2/workloads", "/api/v1/pods", "/apis/apps/v1/namespaces/ns/daemonsets"
  std::string collection_path() const;
};

// The request targets (path and query) of a list page and of a watch.
std::string list_target(const resource_target& target, const list_request& request);
std::string watch_target(const resource_target& target, const watch_request& request);

class api_lister_watcher final : public lister_watcher {
 public:
  // `client` and `decoder` must outlive this object.
  api_lister_watcher(api_client& client, json_decoder& decoder, resource_target target);

  net::awaitable<list_result> list(list_request request) override;
  net::awaitable<watch_open> watch(watch_request request) override;
  void cancel() override;

 private:
  api_client& client_;
  json_decoder& decoder_;
  resource_target target_;
  std::shared_ptr<cancel_token> cancel_;
  std::weak_ptr<body_stream> open_stream_;
};

// Reads watch events out of a body stream (exposed for tests with canned bodies).
class body_watch_stream final : public watch_stream {
 public:
  body_watch_stream(std::shared_ptr<body_stream> body, json_decoder& decoder, kind_key type);
  net::awaitable<watch_item> next() override;

 private:
  std::shared_ptr<body_stream> body_;
  json_decoder& decoder_;
  kind_key type_;
  line_splitter splitter_;
  std::deque<watch_item> ready_;
  bool ended_ = false;
};

}  // namespace sextant::kube
