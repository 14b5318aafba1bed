#pragma once
// A request and an answer as the API layer sees them, independent of the HTTP library: the
// router is a function from one to the other, so it is tested without sockets.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "util/json.hpp"

namespace sextant {

struct api_request {
  std::string method;  // "GET", "HEAD", "PUT", ...
  std::string target;  // path and query, as sent: "/api/v1/problems?category=dra"
  std::string if_none_match;
  std::string body;
  std::string accept_encoding = {};
  std::string authorization = {};  // the Authorization header; read only by app::answer's authentication
  std::string client = {};         // who sent it, for per-client limits: an address (an IPv6 one as its /64)
};

struct api_response;

// Where a streamed answer goes: chunks of text/plain to the client, as they come.
class chunk_sink {
 public:
  virtual ~chunk_sink() = default;
  // Before the first write only: answer this error instead of the stream.
  virtual void fail(api_response error) = 0;
  // Sends text (the 200 header first, once); false when the client has gone and nothing more will
  // be read.
  virtual boost::asio::awaitable<bool> write(std::string text) = 0;
  virtual bool gone() const = 0;
  // What to do when the client goes away (or the server stops): end the upstream reads. Runs at
  // once if it has gone already; one hook at a time.
  virtual void on_gone(std::function<void()> hook) = 0;
};

struct api_response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // A cached body, served as is without a copy; when set, `body` is unused.
  std::shared_ptr<const std::string> shared_body;
  std::vector<std::pair<std::string, std::string>> headers;  // ETag, Allow, ...
  std::string route;  // the route template, for metrics: "/api/v1/{section}/{resource}"
  std::string etag;   // set by a cached view (derived from what it read); else hashed from the body
  bool gzipped = false;
  // A streamed answer (chunked text/plain): the server runs it once the response starts, and the
  // connection closes after it. When set, `body` and `status` are unused unless it fails.
  std::function<boost::asio::awaitable<void>(chunk_sink&)> stream;

  std::string_view bytes() const { return shared_body ? std::string_view(*shared_body) : std::string_view(body); }
};

// The error envelope every non-2xx answer carries; its message goes through masking::operator_text.
api_response error_response(int status, const std::string& reason, const std::string& message);
api_response json_response(const json& body, int status = 200);

// Splits a target into path segments (percent-decoded) and query parameters.
struct parsed_target {
  std::vector<std::string> segments;
  std::map<std::string, std::string> query;
  std::string error;  // set when the target is malformed
};
parsed_target parse_target(const std::string& target);

// A strong ETag of a body, and whether an If-None-Match header matches it.
std::string etag_of(const std::string& body);
bool etag_matches(const std::string& if_none_match, const std::string& etag);

}  // namespace sextant
