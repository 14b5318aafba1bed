#pragma once
// A section's streaming route: an answer that is a text stream rather than one JSON document
// (`GET .../rayclusters/{ns}/{name}/logs`). The section stays pure: from the request and the cache
// it returns either an error or a plan of what to stream (the pods' logs to read, merged); the
// daemon runs the plan, reading the logs from the API server as the client reads its answer, and
// ends the upstream reads when the client goes away. Snapshot mode has no logs to stream.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sections/view_context.hpp"
#include "util/json.hpp"

namespace sextant {

// One container's log to read.
struct pod_log_source {
  std::string namespace_;
  std::string pod;
  std::string container;
  std::string prefix;  // put before each of its lines ("" for a log shown alone)
};

// What a streaming route streams: the merged log of its sources, after the notices.
struct pod_log_plan {
  std::vector<pod_log_source> sources;
  std::vector<std::string> notices;  // written first, each a line of the daemon's: what was left out
  bool follow = false;
  std::optional<std::int64_t> tail_lines;
};

// The request as the route sees it: the object named in the path and the query parameters
// (only those the route declared; the router refuses others).
struct stream_request {
  std::string namespace_;
  std::string name;
  std::map<std::string, std::string> query;
};

// An error (status >= 400, reason, message), or the plan.
struct stream_answer {
  int status = 200;
  std::string reason;
  std::string message;
  pod_log_plan logs;
};

// A resource that reads a subresource from the cluster (`pods/log`): the RBAC grant it needs.
struct upstream_read {
  std::string group;
  std::string resource;  // with its subresource: "pods/log"
  std::string verb = "get";
};

// Routed as /api/v1/{section}/{resource}/{namespace}/{name}/{segment}; text/plain, chunked.
struct streaming_route {
  std::string resource;                 // a resource of the section: "rayclusters"
  std::string segment;                  // "logs"
  std::vector<std::string> parameters;  // the query parameters it takes
  std::function<stream_answer(const stream_request&, const view_context&)> open;
  upstream_read reads;
};

}  // namespace sextant
