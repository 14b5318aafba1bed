#pragma once
// Where the objects come from, as the API sees it: a live cluster (app/live_cluster.hpp, over
// kube::live_source) or a snapshot of files (runtime/snapshot_cluster.hpp). The router asks the
// one the daemon runs on, whichever it is, and never checks for a missing piece: a snapshot
// answers each question for itself (ready, nothing forbidden, no logs).
//
// Owned by daemon_state; lives on the event loop. Not thread-safe.
#include <functional>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "sections/streaming_route.hpp"
#include "store/object.hpp"

namespace sextant {

class chunk_sink;  // api/http_types.hpp: where a streamed answer's bytes go

// A streaming route's answer, once started: writes the logs to the client as they arrive.
using pod_log_stream = std::function<boost::asio::awaitable<void>(chunk_sink&)>;

class cluster_source {
 public:
  virtual ~cluster_source() = default;

  // What is not read yet, by name ("discovery", "workloads.kueue.x-k8s.io"); empty: ready.
  virtual std::vector<std::string> unsynced() const = 0;
  // What the API server forbids reading: ready as far as it goes, but nothing of it is known.
  virtual std::vector<std::string> forbidden() const = 0;
  // A view needs a kind that is read on demand: read it now, and for a while.
  virtual void demand(const kind_key& type) = 0;
  // Whether pod logs can be read at all (a live cluster's API server has them; a snapshot not).
  virtual bool serves_pod_logs() const = 0;
  // The stream of a streaming route's pod logs; only asked when serves_pod_logs().
  virtual pod_log_stream pod_logs(pod_log_plan plan) = 0;
  // The stored problem settings changed (a PUT, a re-read file or ConfigMap): what is read and
  // judged follows them.
  virtual void settings_changed() = 0;
};

}  // namespace sextant
