#pragma once
// Wires the daemon together on one io_context: the state, the source of objects (a snapshot
// directory or a live cluster), the problem timers and the HTTP server, and stops them all
// gracefully on SIGTERM/SIGINT (also while a snapshot loads). SIGHUP re-reads the problem
// settings, SIGUSR1 logs a status line.
#include <chrono>
#include <memory>
#include <optional>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "app/loop_monitor.hpp"
#include "app/probe_server.hpp"
#include "config/daemon_config.hpp"
#include "http/http_server.hpp"
#include "problems/problem_metrics.hpp"
#include "runtime/daemon_state.hpp"

namespace sextant {

namespace kube {
class live_source;
class document_poller;
}  // namespace kube

class authenticator;
class authorizer;
class cut_memo;
class request_access;
class api_router;

class app {
 public:
  app(boost::asio::io_context& io, daemon_config config);
  ~app();

  // Loads or connects, starts serving; throws std::runtime_error with an admin-readable
  // message on a start-up failure (bad snapshot directory, port taken, unusable kubeconfig).
  void start();
  // Runs the loop until stopped; returns the exit code.
  int run();

  daemon_state& state() { return *state_; }
  unsigned short port() const { return server_ ? server_->port() : 0; }
  // The --probe-listen port, or 0 when probes are answered on the API port only.
  unsigned short probe_port() const { return probe_server_ ? probe_server_->port() : 0; }

 private:
  boost::asio::awaitable<api_response> answer(api_request request);
  // The router's answer, a slice at a time (the loop serves others between slices).
  boost::asio::awaitable<api_response> render(api_router& router, const api_request& request);
  // --auth=kubernetes: who asks (TokenReview), then the answer cut to what they may read, asking
  // the permissions it needs (SubjectAccessReviews) before it is served.
  boost::asio::awaitable<api_response> answer_caller(api_request request);
  void start_access_control();
  // --tls=self-signed: the CA and certificate made for this run, the CA published (state, file).
  std::optional<self_signed_tls> make_own_certificate();
  void warn_anyone_may_read();
  void load_settings();
  void read_settings_file();
  static void check_settings_directory(const std::string& file);
  // Re-reads a settings ConfigMap if it changed; `again`: and looks again in a while.
  void reload_configmap_settings(bool again = true);
  // SIGTERM and SIGINT stop the daemon; SIGHUP re-reads the problem settings; SIGUSR1 logs a
  // line of status. None of them kills it without a word.
  void wait_for_signals();
  void wait_for_notices();
  void reread_settings();
  void log_status();
  void load_snapshot();
  void start_live();
  void schedule_problem_evaluation();
  // Starts a problem evaluation now (or right after the one under way), judged a slice at a time.
  void evaluate_problems_now();
  // Evaluates in one step, for an answer that must wait for it (a snapshot's settings PUT).
  void evaluate_problems_at_once();
  boost::asio::awaitable<void> judge_problems();
  void after_problem_pass();
  void release_freed_memory();
  void register_metrics();
  void start_probes();
  void shutdown();

  boost::asio::io_context& io_;
  daemon_config config_;
  std::unique_ptr<clock> clock_;
  std::unique_ptr<daemon_state> state_;
  std::unique_ptr<http_server> server_;
  std::unique_ptr<loop_monitor> monitor_;
  std::unique_ptr<problem_metrics> problem_metrics_;  // the /metrics families of the current problems
  std::unique_ptr<probe_publisher> probe_publisher_;
  std::unique_ptr<probe_server> probe_server_;  // its own thread; reads only what the publisher wrote
  boost::asio::signal_set signals_;             // SIGTERM, SIGINT
  boost::asio::signal_set notice_signals_;      // SIGHUP, SIGUSR1
  boost::asio::steady_timer debounce_timer_;
  boost::asio::steady_timer due_timer_;
  boost::asio::steady_timer settings_timer_;  // re-reads a settings ConfigMap
  boost::asio::steady_timer anyone_timer_;    // --insecure-allow-anyone's warning, every minute
  bool evaluation_pending_ = false;
  bool problem_pass_running_ = false;
  bool evaluate_again_ = false;  // asked for while a pass ran: another follows it
  std::optional<std::chrono::steady_clock::time_point> last_pass_began_;
  std::size_t changes_since_trim_ = 0;
  bool stopping_ = false;
  int exit_code_ = 0;                               // 1 when a task that must not stop failed
  std::shared_ptr<kube::live_source> live_source_;  // the live cluster source, when not in snapshot mode
  std::unique_ptr<kube::document_poller> poller_;   // uses live_source_'s client, so is destroyed first
  std::unique_ptr<authenticator> authenticator_;    // --auth=kubernetes; use live_source_'s client
  std::unique_ptr<authorizer> authorizer_;
  std::unique_ptr<cut_memo> cut_memo_;  // with authorizer_: the cuts decided from its decisions
};

}  // namespace sextant
