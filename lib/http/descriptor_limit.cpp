#include "http/descriptor_limit.hpp"

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

namespace sextant {

descriptor_plan plan_descriptors(const rlimit& current, std::size_t max_connections) {
  descriptor_plan plan;
  const rlim_t needed = static_cast<rlim_t>(max_connections + descriptors_beside_connections);
  if (current.rlim_cur == RLIM_INFINITY || current.rlim_cur >= needed) {
    return plan;
  }
  if (current.rlim_max == RLIM_INFINITY || current.rlim_max >= needed) {
    plan.raise_soft_to = needed;
    return plan;
  }
  plan.error = "--max-connections " + std::to_string(max_connections) + " needs about " + std::to_string(needed) +
               " file descriptors, but RLIMIT_NOFILE allows " + std::to_string(current.rlim_max) +
               " (its hard limit): lower --max-connections to at most " +
               std::to_string(current.rlim_max > descriptors_beside_connections
                                  ? current.rlim_max - descriptors_beside_connections
                                  : 0) +
               ", or raise the limit (ulimit -Hn, or the container runtime's)";
  return plan;
}

std::string ensure_descriptors(std::size_t max_connections) {
  rlimit current{};
  if (getrlimit(RLIMIT_NOFILE, &current) != 0) {
    spdlog::warn("cannot read RLIMIT_NOFILE ({}): --max-connections {} is not checked against it", std::strerror(errno),
                 max_connections);
    return {};
  }
  descriptor_plan plan = plan_descriptors(current, max_connections);
  if (!plan.error.empty()) {
    return plan.error;
  }
  if (plan.raise_soft_to) {
    rlimit raised = current;
    raised.rlim_cur = *plan.raise_soft_to;
    if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
      return "cannot raise RLIMIT_NOFILE from " + std::to_string(current.rlim_cur) + " to " +
             std::to_string(raised.rlim_cur) + " for --max-connections " + std::to_string(max_connections) + ": " +
             std::strerror(errno);
    }
    spdlog::info("raised the open-file limit from {} to {} for --max-connections {}", current.rlim_cur, raised.rlim_cur,
                 max_connections);
  }
  return {};
}

}  // namespace sextant
