#pragma once
// Reads the documents sections poll (section::documents) in live mode: for each object a view
// asked about in the last few minutes, one GET every `interval`, from the first version of the
// document's group the cluster serves. Answers land in `polled_documents`; a failed read
// removes the old answer, so a view shows nothing rather than something stale.
//
// Lives on the event loop; not thread-safe. The fetch is injected so tests need no server.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kube/api_client.hpp"
#include "store/object_store.hpp"
#include "store/polled_documents.hpp"
#include "store/served_kinds.hpp"
#include "util/time.hpp"

namespace sextant::kube {

struct poller_options {
  std::chrono::milliseconds tick{1000};    // how often asks are looked at
  std::chrono::seconds forget_after{300};  // a document nobody asked for this long is no longer read
};

class document_poller {
 public:
  using fetch_function = std::function<net::awaitable<http_reply>(std::string target)>;

  // `store`, `served`, `documents` and `wall` must outlive this object.
  document_poller(net::any_io_executor executor, std::vector<polled_document> wanted, const object_store& store,
                  const served_kinds& served, polled_documents& documents, const clock& wall, fetch_function fetch,
                  poller_options options = {});
  ~document_poller();
  document_poller(const document_poller&) = delete;
  document_poller& operator=(const document_poller&) = delete;

  void start();
  void stop();
  // Reads made so far, for tests and metrics.
  std::size_t reads() const { return reads_; }

  // "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads"
  static std::string target(const polled_document& wanted, const std::string& version, const document_key& key);

 private:
  static net::awaitable<void> run(document_poller* self, std::shared_ptr<bool> alive);
  // Reads what is due now; false when the poller was stopped or destroyed meanwhile. `alive` is
  // run()'s, which awaits this and so outlives it.
  static net::awaitable<bool> poll_due(document_poller* self, const std::shared_ptr<bool>& alive);
  std::string served_version(const polled_document& wanted) const;
  void note_failure(const polled_document& wanted, const std::string& error);

  net::any_io_executor executor_;
  std::vector<polled_document> wanted_;
  const object_store& store_;
  const served_kinds& served_;
  polled_documents& documents_;
  const clock& wall_;
  fetch_function fetch_;
  poller_options options_;
  net::steady_timer timer_;
  std::map<document_key, std::chrono::steady_clock::time_point> last_read_;
  std::map<std::string, std::string> last_error_;  // per document id, so each error is logged once
  std::size_t reads_ = 0;
  bool started_ = false;
  bool stopped_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace sextant::kube
