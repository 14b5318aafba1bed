#pragma once
// Everything the event loop owns: the caches, what the cluster serves, the sections, the
// problems and the metrics. One instance per daemon; no globals. Not thread-safe by design.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "metrics/metrics_registry.hpp"
#include "problems/problem_engine.hpp"
#include "problems/settings_home.hpp"
#include "runtime/cluster_source.hpp"
#include "runtime/request_limits.hpp"
#include "runtime/section_catalog.hpp"
#include "store/object_store.hpp"
#include "store/polled_documents.hpp"
#include "store/served_kinds.hpp"
#include "util/log_throttle.hpp"

namespace sextant {

class view_cache;

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
  // The API's own: this layer holds it without knowing it, and the router makes one with
  // default limits when the app set none.
  std::shared_ptr<view_cache> views;
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

  // Where the objects come from: a snapshot (the default: ready, no logs) or, set by the app, the
  // live cluster. Readiness, demand, pod logs and settings changes are asked of it.
  std::unique_ptr<cluster_source> source;
};

}  // namespace sextant
