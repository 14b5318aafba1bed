#pragma once
// Runs a streaming route's plan: reads each pod's log from the API server
// (/api/v1/namespaces/{ns}/pods/{pod}/log) through the daemon's client, all at once, and writes
// them merged to the client as they arrive. The answer's status waits for every log to open: an
// error when none could be read, else 200 with a notice for each that could not. The client's
// going away cancels every upstream read; an upstream that breaks is said in the stream.
#include <boost/asio/awaitable.hpp>

#include "api/http_types.hpp"
#include "kube/api_client.hpp"
#include "sections/streaming_route.hpp"

namespace sextant {

boost::asio::awaitable<void> stream_pod_logs(kube::api_client& client, pod_log_plan plan, chunk_sink& sink);

}  // namespace sextant
