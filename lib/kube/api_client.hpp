#pragma once
// The HTTPS client of the daemon: GET requests to one API server, answered whole (lists,
// discovery, single objects) or as a stream (watches).
//
// One instance per cluster, on the event loop. Connections for whole answers are kept alive
// and reused; a stream owns its connection until it ends. Credentials come from a
// credential_source: a 401 makes it refresh (token file, exec plugin) and the request is sent
// once more. Every answer, and every failure to get one, is counted by verb and code.
// Failures are values (status 0 with an error sentence), never exceptions.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api_status.hpp"
#include "kube/asio.hpp"
#include "kube/cancel_token.hpp"
#include "kube/connection_config.hpp"
#include "kube/credential_source.hpp"
#include "metrics/metrics_registry.hpp"
#include "util/time.hpp"

namespace boost::asio::ssl {
class context;
}

namespace sextant::kube {

struct request_options {
  std::string accept = "application/json";
  std::string verb = "get";                                          // the metrics label: get, list, watch
  std::optional<std::uint64_t> body_limit = std::uint64_t{1} << 30;  // lists can be large
  std::chrono::seconds timeout{120};  // until the whole answer (or a stream's header) is in
};

struct http_reply {
  int status = 0;  // 0: no HTTP answer; `error` says why (for a 401: whose credentials)
  std::string content_type;
  std::string body;
  std::string error;
  std::string retry_after{};  // the Retry-After header of a refusal (429, 503), as sent
};

struct stream_chunk {
  std::string_view data;  // valid until the next read
  bool done = false;      // the body ended normally
  bool idle = false;      // nothing arrived within the idle timeout
  std::string error;      // the connection failed
};

// The body of an answer as it arrives.
class body_stream {
 public:
  virtual ~body_stream() = default;
  virtual net::awaitable<stream_chunk> read() = 0;
  virtual void cancel() = 0;
};

// What a non-200 answer (or no answer) means, as the reflectors and discovery report it. A 401
// names where the refused credentials came from (never the credentials themselves).
api_error reply_error(int status, std::string_view body, std::string_view retry_after, const std::string& error);

struct stream_reply {
  int status = 0;
  std::string content_type;
  std::string body;  // the whole body of a non-200 answer (a Status, usually)
  std::string error;
  std::unique_ptr<body_stream> stream;  // set for a 200
  std::string retry_after{};
};

class api_client {
 public:
  // `wall` must outlive the client.
  api_client(net::any_io_executor executor, connection_config config, metrics_registry& metrics, const clock& wall,
             credential_options credentials = {});
  ~api_client();

  // Builds the TLS context from the static config: an unusable CA or client certificate is
  // reported here, at startup, naming the field. A CA read from a file is read again when the
  // file changes (checked before each request, by its stamp): a replaced bundle is trusted from
  // the next connection on, without a restart.
  std::string init();

  net::awaitable<http_reply> get(std::string target, request_options options,
                                 std::shared_ptr<cancel_token> cancel = nullptr);
  // A POST of a JSON body, answered whole: only the reviews the API server answers without
  // storing anything (TokenReview, SubjectAccessReview); the daemon writes no object.
  net::awaitable<http_reply> post(std::string target, std::string body, request_options options);
  net::awaitable<stream_reply> open_stream(std::string target, request_options options,
                                           std::chrono::seconds idle_timeout,
                                           std::shared_ptr<cancel_token> cancel = nullptr);

  const connection_config& config() const { return config_; }
  credential_source& credentials() { return credentials_; }
  // The counter family of requests sent, labelled by verb and HTTP code.
  static constexpr const char* requests_metric = "sextant_apiserver_requests_total";

  struct connection;

 private:
  struct exchange;
  net::awaitable<exchange> send(const std::string& target, const std::string* post_body, const request_options& options,
                                const std::shared_ptr<cancel_token>& cancel, bool allow_pooled);
  net::awaitable<http_reply> whole(std::string target, const std::string* post_body, request_options options,
                                   std::shared_ptr<cancel_token> cancel);
  net::awaitable<std::string> connect(connection& c);
  std::shared_ptr<net::ssl::context> tls_for(const auth_material& auth, std::string& error);
  bool reread_ca();
  std::string refused_credentials(bool reread) const;
  std::string no_answer(std::chrono::seconds within, const char* during) const;
  void count(const std::string& verb, int status);

  net::any_io_executor executor_;
  connection_config config_;
  metrics_registry& metrics_;
  credential_source credentials_;

  std::string tls_cert_pem_;  // the client certificate the current context presents
  std::shared_ptr<net::ssl::context> tls_;
  std::uint64_t tls_generation_ = 0;
  file_stamp ca_stamp_{};
  std::string ca_error_;  // the CA file holds no usable certificate (until it changes)
  std::vector<std::shared_ptr<connection>> idle_;
};

}  // namespace sextant::kube
