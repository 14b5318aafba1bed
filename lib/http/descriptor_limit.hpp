#pragma once
// File descriptors for --max-connections: each connection holds one, and the daemon needs more
// for its own connections to the API server, its probe port, the files it reads and the event
// loop. Checked at start against RLIMIT_NOFILE: the soft limit is raised when the hard limit
// allows; when even the hard limit is too low the daemon refuses to start, saying what to change,
// rather than fail accepts under load.
#include <cstddef>
#include <optional>
#include <string>

#include <sys/resource.h>

namespace sextant {

// Descriptors kept beside the connections: the API client's connections (one per watch at most),
// the probe server, the listening sockets, log and settings files, the loop's own.
inline constexpr std::size_t descriptors_beside_connections = 128;

struct descriptor_plan {
  std::optional<rlim_t> raise_soft_to;  // set when the soft limit must go up
  std::string error;                    // set when the hard limit is too low
};

// What to do about `current` for `max_connections` connections.
descriptor_plan plan_descriptors(const rlimit& current, std::size_t max_connections);

// Applies the plan to this process; returns the error sentence, or empty.
std::string ensure_descriptors(std::size_t max_connections);

}  // namespace sextant
