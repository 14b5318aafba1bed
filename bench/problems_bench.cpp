// A problem pass after a batch of Pod changes, at the envelope's 150 000 Pods: every rule of every
// section judging every object (an engine that does not follow the store) against the daemon's
// own engine, which judges only what changed since its last pass (problem_engine::follow).
// At the envelope, 100 Pod status changes a second cost the daemon 13.3 s of CPU a minute, nearly
// all of it in whole passes (about 290 ms each).
//
// Usage: problems_bench [pods] [changes a batch] [batches] [one Pod in N waits]
//        (defaults 150 000, 100, 20, 100)
// One Pod in N waits for the scheduler on a claim that does not exist (a DRA problem each: 1 500
// by default; the envelope's generated cluster had a few hundred problems); each batch rewrites
// the PodScheduled message of `changes` of them, as churn.py pod-churn does.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/daemon_state.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"

using namespace sextant;

namespace {

std::string pod_json(std::size_t i, std::size_t version, std::size_t waiting_every) {
  const std::string name = "p" + std::to_string(i);
  const std::string ns = "team-" + std::to_string(i % 500);
  const std::string meta = R"("metadata": {"name": ")" + name + R"(", "namespace": ")" + ns + R"(", "uid": "u)" +
                           std::to_string(i) + R"(", "resourceVersion": ")" + std::to_string(version) +
                           R"(", "creationTimestamp": "2026-12-01T00:00:00Z"})";
  if (i % waiting_every != 0) {
    return R"({"apiVersion": "v1", "kind": "Pod", )" + meta + R"(, "spec": {"nodeName": "node-)" +
           std::to_string(i % 5000) +
           R"(", "containers": [{"name": "main", "image": "trainer:1"}, {"name": "side", "image": "log:1"}]},)"
           R"( "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}})"
           "\n";
  }
  return R"({"apiVersion": "v1", "kind": "Pod", )" + meta +
         R"(, "spec": {"containers": [{"name": "main", "image": "trainer:1"}], "resourceClaims": [{"name": "gpu",)"
         R"( "resourceClaimName": "missing-)" +
         name +
         R"("}]}, "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",)"
         R"( "reason": "Unschedulable", "lastTransitionTime": "2026-12-01T00:00:00Z", "message": "0/5000 nodes)"
         R"( are available: try )" +
         std::to_string(version) + R"(."}]}})" + "\n";
}

void load(snapshot_loader& loader, const std::string& text) {
  snapshot_report report;
  loader.load_text("bench.json", text, true, report);
  if (!report.errors.empty()) {
    std::fprintf(stderr, "load: %zu objects not loaded: %s\n", report.errors.size(), report.summary().c_str());
  }
}

double milliseconds_of(auto&& work) {
  const auto started = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t pods = argc > 1 ? std::stoul(argv[1]) : 150000;
  const std::size_t changes = argc > 2 ? std::stoul(argv[2]) : 100;
  const std::size_t batches = argc > 3 ? std::stoul(argv[3]) : 20;
  const std::size_t waiting_every = std::max<std::size_t>(argc > 4 ? std::stoul(argv[4]) : 100, 1);
  fixed_clock time(parse_rfc3339("2026-12-01T01:00:00Z").value());
  daemon_state state(all_sections(), time);
  snapshot_loader loader(state.store, state.served, state.profiles, time.now());
  std::string text =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.nvidia.com", "uid": "dc"}})"
      "\n"
      // A claim, so that the claims are read: without one the snapshot has not read them, and a
      // claim not found "cannot tell".
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "other", "namespace": )"
      R"("team-0", "uid": "rc"}, "spec": {"devices": {"requests": []}}})"
      "\n";
  for (std::size_t i = 0; i < pods; ++i) {
    text += pod_json(i, 1, waiting_every);
  }
  load(loader, text);
  state.settle_snapshot_lists();
  // The same rules in an engine that judges every object every pass, as before.
  problem_engine whole(state.catalog.categories(), state.catalog.rules());

  const double first = milliseconds_of([&] { state.evaluate_problems(); });
  whole.evaluate(state.context());
  std::vector<double> whole_ms;
  std::vector<double> changed_ms;
  std::size_t next = 0;
  for (std::size_t batch = 0; batch < batches; ++batch) {
    std::string writes;
    for (std::size_t i = 0; i < changes; ++i) {
      writes += pod_json((next++ * waiting_every) % pods, 2 + batch, waiting_every);
    }
    load(loader, writes);
    changed_ms.push_back(milliseconds_of([&] { state.evaluate_problems(); }));
    whole_ms.push_back(milliseconds_of([&] { whole.evaluate(state.context()); }));
    if (state.problems.current().size() != whole.current().size()) {
      std::fprintf(stderr, "the two engines disagree: %zu against %zu problems\n", state.problems.current().size(),
                   whole.current().size());
      return 1;
    }
  }
  std::printf(
      "%zu Pods, %zu problems: first pass %.1f ms; a pass after %zu Pod changes (median of %zu): every object %.1f "
      "ms, only what changed %.2f ms\n",
      pods, state.problems.current().size(), first, changes, batches, median(whole_ms), median(changed_ms));
  return 0;
}
