#pragma once
// The log endpoint of a kubelet, for the test API server to proxy pod log requests to: HTTPS on
// 127.0.0.1 with a self-signed certificate made at start (the test apiserver is given no
// --kubelet-certificate-authority, so it does not verify kubelets' serving certificates, as with
// kubelets that sign their own), answering GET /containerLogs/{ns}/{pod}/{container} with
// `follow` and `tailLines` as a kubelet does. A test points a Node at it (`node_status`) and
// writes the containers' logs here. Runs on a thread of its own; every member is thread-safe.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "util/json.hpp"

namespace sextant::integration {

class fake_kubelet {
 public:
  fake_kubelet();
  ~fake_kubelet();
  fake_kubelet(const fake_kubelet&) = delete;
  fake_kubelet& operator=(const fake_kubelet&) = delete;

  unsigned short port() const;
  // A Node's status that sends the API server here: InternalIP 127.0.0.1 and this port.
  json node_status() const;

  // Adds to a container's log (and sends it to whoever follows it).
  void append(const std::string& namespace_, const std::string& pod, const std::string& container,
              const std::string& text);
  // Drops every followed stream of a pod mid-body, without the last chunk: a connection that
  // breaks between the node and the API server.
  void break_streams(const std::string& namespace_, const std::string& pod);

  // Followed streams open now, and how many ended because the API server closed them.
  int open_follows() const;
  int closed_by_peer() const;
  // Every request target seen, in order.
  std::vector<std::string> requests() const;

  struct state;

 private:
  std::shared_ptr<state> state_;
};

}  // namespace sextant::integration
