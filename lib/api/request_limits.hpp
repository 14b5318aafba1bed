#pragma once
// What one API request may ask of the daemon's views beyond its size (the HTTP server bounds
// that): set from the flags (README "Reliability"), read by the router.
#include <cstddef>

namespace sextant {

struct request_limits {
  // Terms of one labelSelector; more are a 400 naming the limit.
  std::size_t max_selector_terms = 20;
};

}  // namespace sextant
