#pragma once
// Who the daemon is to the API server, kept current: a static token or basic auth, a token
// file re-read when it changes, client certificates, or an exec credential plugin run again
// when its credential expires or the server answers 401.
//
// Lives on the event loop. `current()` may run the plugin: callers awaiting at the same time
// share one run. After a failed run, callers get its error until a pause has passed that grows
// with each failure in a row (exponential, with jitter, back to the start after a success), so a
// broken plugin is neither started in a tight loop by many watches nor by every synchronised
// daemon at once.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "kube/asio.hpp"
#include "kube/backoff.hpp"
#include "kube/connection_config.hpp"
#include "kube/exec_credential.hpp"
#include "util/file_stamp.hpp"
#include "util/time.hpp"

namespace sextant::kube {

struct auth_material {
  std::string authorization;  // the Authorization header's value, or empty
  std::string client_cert_pem;
  std::string client_key_pem;
  std::uint64_t generation = 0;  // changes whenever any of the above may have changed
};

struct auth_result {
  std::optional<auth_material> value;
  std::string error;
};

struct credential_options {
  // A plugin still running after this is killed and counts as a failed run.
  std::chrono::seconds plugin_timeout{60};
  // The pause after a failed plugin run before the next: 1 s, doubling to 5 minutes, each
  // stretched by up to 50 %. `reset_after` is past the longest pause: only a success resets it.
  backoff_policy plugin_backoff{std::chrono::seconds(1), std::chrono::minutes(5), 2.0, 0.5, std::chrono::hours(1)};
};

class credential_source {
 public:
  // `config` and `wall` must outlive this object.
  credential_source(net::any_io_executor executor, const connection_config& config, const clock& wall,
                    credential_options options = {});

  net::awaitable<auth_result> current();
  // The server refused `generation` (401): forget it so that the next `current()` re-reads the
  // token file or runs the plugin again. Returns whether anything can change at all.
  bool invalidate(std::uint64_t generation);
  // How many times the exec plugin ran (for tests and logs).
  std::size_t plugin_runs() const { return plugin_runs_; }
  // Where the credentials come from, for errors (never the secret itself): "the token file
  // /var/run/secrets/.../token", "the exec credential plugin aws", ...
  std::string origin() const;

 private:
  bool refresh_token_file(std::string& error);
  bool exec_credential_fresh() const;
  net::awaitable<void> run_plugin();
  auth_material material() const;

  net::any_io_executor executor_;
  const connection_config& config_;
  const clock& wall_;
  std::uint64_t generation_ = 1;

  std::string file_token_;
  std::optional<file_stamp> file_stamp_;
  bool file_invalidated_ = false;

  std::optional<exec_credential> exec_;
  bool plugin_running_ = false;
  net::steady_timer plugin_done_;  // waiters sleep on it; cancelled when a run ends
  std::string plugin_error_;
  credential_options options_;
  backoff plugin_backoff_;
  std::chrono::steady_clock::time_point plugin_retry_at_{};  // no run before this after a failure
  std::size_t plugin_runs_ = 0;
};

}  // namespace sextant::kube
