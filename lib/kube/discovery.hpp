#pragma once
// Which groups, versions and resources the API server serves.
//
// Asks for aggregated discovery (apidiscovery.k8s.io/v2, one answer each for /api and /apis)
// and falls back to the older documents (/api, /apis, then one per group-version) when the
// server does not offer it. The parsers live in discovery_document.hpp.
#include <chrono>
#include <optional>
#include <string>

#include "kube/api_client.hpp"
#include "kube/discovery_document.hpp"

namespace sextant::kube {

struct discovery_outcome {
  std::optional<discovery_document> document;
  std::string error;
  // A refusal's Retry-After (429, 503: the API server's priority and fairness): the next
  // discovery waits at least this long.
  std::optional<std::chrono::seconds> retry_after{};
};

net::awaitable<discovery_outcome> discover(api_client& client);

}  // namespace sextant::kube
