#pragma once
// The tests' own way to change the cluster: a small blocking HTTPS client holding the admin
// token (sextantd itself only ever sends GETs). One connection, reopened when the server
// closed it; use one client per thread.
#include <memory>
#include <string>

#include "util/json.hpp"

namespace sextant::integration {

struct answer {
  int status = 0;  // 0: no answer (error says why)
  std::string text;
  std::string error;
  std::string retry_after{};  // the Retry-After header, "" when none
  std::string etag{};         // the ETag header, "" when none

  bool ok() const { return status >= 200 && status < 300; }
  json body() const;
};

class admin_client {
 public:
  admin_client(std::string server, std::string ca_file, std::string token);
  ~admin_client();
  admin_client(admin_client&&) noexcept;

  answer get(const std::string& path);
  answer post(const std::string& path, const json& body);
  answer put(const std::string& path, const json& body);
  answer remove(const std::string& path);

 private:
  struct impl;
  answer send(const std::string& method, const std::string& path, const std::string* body);
  std::unique_ptr<impl> impl_;
};

// A plain-HTTP POST to the harness' control port ("http://127.0.0.1:PORT").
answer control_post(const std::string& control_url, const std::string& path);

}  // namespace sextant::integration

namespace sextant::integration {

// A plain-HTTP GET ("http://127.0.0.1:PORT" + path): the daemon's own API.
answer http_get(const std::string& base_url, const std::string& path);
// The same with a bearer token (none when empty) and, but for GET, a JSON body: the daemon's API
// as one caller asks it (--auth=kubernetes).
answer http_as(const std::string& token, const std::string& method, const std::string& base_url,
               const std::string& path, const std::string& body = {});

}  // namespace sextant::integration
