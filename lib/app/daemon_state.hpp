#pragma once
// Everything the event loop owns: the caches, what the cluster serves, the sections, the
// problems and the metrics. One instance per daemon; no globals. Not thread-safe by design.
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "api/request_limits.hpp"
#include "app/section_catalog.hpp"
#include "metrics/metrics_registry.hpp"
#include "problems/problem_engine.hpp"
#include "problems/settings_home.hpp"
#include "store/object_store.hpp"
#include "store/polled_documents.hpp"
#include "store/served_kinds.hpp"
#include "util/log_throttle.hpp"

namespace sextant {

class view_cache;
class chunk_sink;

struct daemon_state {
  daemon_state(std::vector<section> sections, const clock& time_source);
  ~daemon_state();
  daemon_state(const daemon_state&) = delete;
  daemon_state& operator=(const daemon_state&) = delete;

  view_context context() const { return catalog.context(store, served, time.now(), &documents); }
  // A snapshot is the whole truth about what it holds: marks every section kind's list complete,
  // then cuts each capped kind at its cap as a live list would be cut (the first objects by
  // namespace and name, the API server's order), marked incomplete in the same words. A kind of
  // a group the snapshot serves, of which it holds no object and no typed List (`listed`), was
  // not read: its list says so, and the views that need it say "cannot tell".
  void settle_snapshot_lists(const std::set<kind_key>& listed = {});
  // Sets every category as its home says, and to its default where the home says nothing (a
  // category taken out of a ConfigMap goes back to its default). Names unknown ids in the log.
  void apply_settings(const std::map<std::string, bool>& from_home);
  // Re-evaluates problems now; returns when the next pending finding falls due.
  std::optional<time_point> evaluate_problems();
  // An interpreter threw: logs it and counts it in /metrics by section, resource and interpreter
  // (state, summarize, details, details_extension, list_computed, route, problem_rule), so that a
  // view that lost part of its content shows on a dashboard, not only in a note.
  void interpreter_failed(const std::string& section, const std::string& resource, const std::string& interpreter,
                          const std::string& what);

  section_catalog catalog;
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  polled_documents documents;  // live mode: read by kube::document_poller
  problem_engine problems;
  metrics_registry metrics;
  const clock& time;
  settings_home settings = settings_home::in_memory();
  // Rendered lists, details and problems, kept until what they read changes (api/view_cache).
  std::unique_ptr<view_cache> views;
  // What one request may ask (README "Reliability").
  request_limits limits;
  // Requests whose answer failed (a render that throws fails every request for it until what it
  // reads changes): logged once per period with the count held back.
  log_throttle request_failures_logged;
  // Callers see only what they may read (--auth=kubernetes): views render with joined objects
  // marked (view_context::mark_joins), so each caller's answer is cut from the one rendering.
  bool per_caller_views = false;
  // The non-resource URL a caller needs `get` on to read /metrics (--metrics-permission-path).
  std::string metrics_permission_path = "/sextant/metrics";
  // With --tls=self-signed: the CA of the daemon-made certificate, served to anyone at
  // /.well-known/sextant/ca.crt (empty: that path answers 404).
  std::string tls_ca_pem;

  // Set by the live source: the watches not yet synced (empty: ready). Snapshot mode: none.
  std::function<std::vector<std::string>()> unsynced;
  // Set by the live source: the watches the API server forbids (ready, but nothing known).
  std::function<std::vector<std::string>()> forbidden;
  // Set by the live source: someone needs a kind that is watched on demand.
  std::function<void(const kind_key&)> demand;
  // Set by the app in live mode: streams a streaming route's pod logs from the API server to the
  // client. Unset in snapshot mode, which has no logs.
  std::function<boost::asio::awaitable<void>(pod_log_plan, chunk_sink&)> stream_pod_logs;
  // Set by the app: problem settings changed, so watches and timers must follow.
  std::function<void()> on_settings_changed;
};

}  // namespace sextant
