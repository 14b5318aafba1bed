#pragma once
// Callers of a daemon run with --auth=kubernetes, for the tests of its reviews under faults:
// ServiceAccounts with tokens from the TokenRequest API, fresh ones whenever a test needs callers
// no verdict is kept for. Those in `readers` may get /sextant/metrics (the permission GET
// /metrics needs), those in `strangers` nothing; and the checks of what each is answered.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "admin_client.hpp"
#include "fault_proxy.hpp"
#include "test_cluster.hpp"

namespace sextant::integration {

inline const std::string guarded = "/metrics";  // needs get on /sextant/metrics

// One of each caller, as the API server judges them.
struct callers {
  std::string allowed;  // a ServiceAccount whose group may get /sextant/metrics
  std::string denied;   // one granted nothing
  std::string unknown;  // a token nobody issued
};

class caller_factory {
 public:
  // Makes the namespaces and the RBAC.
  explicit caller_factory(admin_client& admin);
  // New ServiceAccounts `name` in both namespaces, with a token each.
  callers fresh(const std::string& name);

 private:
  std::string token(const std::string& ns, const std::string& name);
  admin_client& admin_;
};

// A kubeconfig in the cluster's folder that sends the daemon through the proxy, as the admin.
std::string kubeconfig_through(const test_cluster& cluster, const fault_proxy& proxy);
// The status, Retry-After and the start of the body, for a failure's message.
std::string describe(const answer& got);
// What a caller may be answered while its review cannot be: 503 in the error envelope, with a
// Retry-After of whole seconds, 1 to 10.
bool unavailable(const answer& got);
// GET /metrics as `token`: its status.
int status_of(const std::string& url, const std::string& token);
// Before any fault: the three verdicts, as the server gives them once its RBAC has the binding
// (within 30 s).
void require_verdicts(const std::string& url, const callers& who);
// After a fault is cleared: each caller's first answer other than 503 is the server's verdict
// (200, 403, 401), and comes within `within`.
void check_verdicts_at_once(const std::string& url, const callers& who, std::chrono::steady_clock::duration within);
// After an API server restart: each caller gets the server's verdict within `within`. Before it, a
// caller with a valid token may be refused (401 or 403), as the server, still reading its service
// accounts and RBAC, refused it: the daemon passes that on and keeps it a second at most. Anything
// else (a 200 for a denied caller, an answer that is neither a verdict nor the 503) fails.
void check_verdicts_after_restart(const std::string& url, const callers& who,
                                  std::chrono::steady_clock::duration within);
// /readyz answers 200 with the text it had before the fault.
void check_ready_unchanged(const std::string& url, const std::string& before);
// Four threads asking GET /metrics as `tokens` (taken in turn) for `length`; every answer is
// given to `check` (under a lock: Catch's assertions are not thread-safe). Returns how many
// requests were answered.
int storm(const std::string& url, const std::vector<std::string>& tokens, std::chrono::steady_clock::duration length,
          const std::function<void(const std::string&, const answer&)>& check);

}  // namespace sextant::integration
