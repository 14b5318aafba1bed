#pragma once
// The tests' one plain-HTTP client (the daemon's API without TLS, the harness' control port): a
// keep-alive connection, opened again after any error or when the server closes it. Blocking;
// one per thread.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "admin_client.hpp"
#include "http_exchange.hpp"

namespace sextant::integration {

class plain_connection {
 public:
  using headers = http_headers;

  // `base_url`: "http://127.0.0.1:PORT". A request not answered within `timeout` fails (status 0).
  explicit plain_connection(const std::string& base_url, std::chrono::seconds timeout = std::chrono::seconds(120));
  ~plain_connection();
  plain_connection(const plain_connection&) = delete;
  plain_connection& operator=(const plain_connection&) = delete;

  // One request; `body` (JSON) is sent when not null.
  answer send(const std::string& method, const std::string& path, const headers& extra = {},
              const std::string* body = nullptr);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace sextant::integration
