#pragma once
// An HTTP CONNECT proxy for the tests, in a thread of its own: it tunnels the daemon's TLS to
// the API server (kubeconfig proxy-url), and can cut the network the way a partition does:
// `pause()` stops passing the server's bytes on, `drop_all()` closes every tunnel.
#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "kube/connection_config.hpp"

namespace sextant::integration {

class connect_proxy {
 public:
  connect_proxy();
  ~connect_proxy();
  connect_proxy(const connect_proxy&) = delete;
  connect_proxy& operator=(const connect_proxy&) = delete;

  std::string url() const;
  // `config` (the cluster's, from a kubeconfig) tunnelled through this proxy (its proxy-url).
  kube::connection_config through(kube::connection_config config) const;
  void pause() { paused_ = true; }
  void resume() { paused_ = false; }
  void drop_all();
  int tunnels_opened() const { return opened_; }

  struct impl;  // the proxy's loop and its open tunnels

 private:
  std::unique_ptr<impl> impl_;
  std::atomic<bool> paused_{false};
  std::atomic<int> opened_{0};
  std::thread thread_;
};

}  // namespace sextant::integration
