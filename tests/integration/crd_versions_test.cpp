// A CRD that changes under a running watch: Kueue's Workloads served first as v1beta1 only, then
// as v1beta2 only (the daemon must re-plan its watch at the version now served), then the CRD
// deleted (its objects go with it) and made again with another storage version. Throughout, the
// cache must come back to exactly what the server lists (every name and resourceVersion), keep
// what it read while it re-reads (said to be out of date, /readyz still ready), and never keep a
// deleted CRD's objects as if they were current.
#include <functional>
#include <map>
#include <thread>

#include <catch2/catch.hpp>

#include "fault_proxy.hpp"
#include "kube/live_source.hpp"
#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sections/core/core_section.hpp"
#include "sections/kueue/kueue_section.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

constexpr const char* ns = "team-a";
const kind_key workloads_kind{"kueue.x-k8s.io", "Workload"};
const std::string crd_path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workloads.kueue.x-k8s.io";

std::string workloads_at(const std::string& version) {
  return "/apis/kueue.x-k8s.io/" + version + "/namespaces/" + ns + "/workloads";
}

// Right after a CRD changes, the API server answers 429 "storage is (re)initializing" or 404
// for a while: not yet, so asked again, within `limit`.
answer settled(const std::function<answer()>& send, std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  answer last = send();
  while (!last.ok() && (last.status == 429 || last.status == 404 || last.status == 503 || last.status == 409) &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    last = send();
  }
  return last;
}

// The CRD as stored, with `served` the only version served and `storage` the one stored.
// ("" serves every version.)
void serve_only(json& crd, const std::string& served, const std::string& storage) {
  for (json& version : crd["spec"]["versions"]) {
    const std::string name = version["name"].get<std::string>();
    version["served"] = served.empty() || name == served;
    version["storage"] = name == storage;
  }
}

void change_crd(admin_client& admin, const std::string& served, const std::string& storage) {
  answer put = settled([&] {
    answer current = settled([&] { return admin.get(crd_path); });
    REQUIRE(current.ok());
    json crd = current.body();
    serve_only(crd, served, storage);
    return admin.put(crd_path, crd);
  });
  INFO(put.status << " " << put.text);
  REQUIRE(put.ok());
}

// The Workloads the server lists at `version`, asked until it answers.
std::map<std::string, std::string> server_workloads(admin_client& admin, const std::string& version) {
  answer ok = settled([&] { return admin.get("/apis/kueue.x-k8s.io/" + version + "/workloads"); });
  REQUIRE(ok.ok());
  return listed(admin, "/apis/kueue.x-k8s.io/" + version + "/workloads");
}

void create_workloads(admin_client& admin, const std::string& version, const std::string& prefix, int count) {
  for (int i = 0; i < count; ++i) {
    answer made = settled([&] {
      return admin.post(workloads_at(version),
                        kueue_workload("kueue.x-k8s.io/" + version, ns, prefix + std::to_string(i), "lq"));
    });
    INFO(made.status << " " << made.text);
    REQUIRE(made.ok());
  }
}

std::string watched_version(const live_harness& live) {
  const auto watches = live.live->watches();
  auto it = watches.find("workloads.kueue.x-k8s.io");
  return it == watches.end() ? std::string() : it->second;
}

// Runs until the daemon watches Workloads at `version` and holds exactly what the server lists.
bool follows(live_harness& live, admin_client& admin, const std::string& version, std::chrono::seconds limit) {
  std::map<std::string, std::string> server;
  const bool done = live.run_until(
      [&] {
        if (watched_version(live) != version || !live.ready()) {
          live.run_for(std::chrono::milliseconds(100));
          return false;
        }
        server = server_workloads(admin, version);
        return live.cached(workloads_kind) == server;
      },
      limit);
  CHECK(watched_version(live) == version);
  CHECK(live.cached(workloads_kind) == server);
  return done;
}

// Workloads are watched while their category is on (or a view asks for them): on, as a daemon
// whose Workload problems are enabled; then until they are read at `version`.
void watch_workloads(live_harness& live, admin_client& admin, const std::string& version) {
  live.live->set_category_check([](const std::string&) { return true; });
  live.live->categories_changed();
  REQUIRE(live.run_until([&] { return live.ready(); }, std::chrono::seconds(30)));
  REQUIRE(follows(live, admin, version, std::chrono::seconds(20)));
}

}  // namespace

TEST_CASE("a watched CRD that changes its served version, is deleted and made again with another storage version",
          "[integration][crds]") {
  test_cluster cluster({.crds = {upstream_crds("kueue").string()}});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());
  // Kueue v0.19.2 serves v1beta1 and v1beta2 (stored): first it serves v1beta1 alone.
  change_crd(admin, "v1beta1", "v1beta1");
  create_workloads(admin, "v1beta1", "first-", 5);
  create_pods(admin, ns, "pod-", 3);

  fault_proxy proxy(cluster);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))),
                    {core::make_section(), kueue::make_section()});
  watch_workloads(live, admin, "v1beta1");

  // (b) Now v1beta2 alone, with changes made meanwhile at the new version. The first two lists at
  // v1beta2 are refused (503), so that the time between the old watch and the new list is long
  // enough to be seen.
  const std::string new_list = "/apis/kueue.x-k8s.io/v1beta2/workloads";
  proxy.refuse(new_list, "list", 2, 503);
  const auto changed_at = std::chrono::steady_clock::now();
  change_crd(admin, "v1beta2", "v1beta2");
  create_workloads(admin, "v1beta2", "second-", 3);
  answer removed = settled([&] { return admin.remove(workloads_at("v1beta2") + "/first-0"); });
  REQUIRE(removed.ok());
  // While the daemon catches up: what it read is kept (never an empty list of a kind that has
  // objects), said to be out of date once it knows, and /readyz stays ready.
  bool said_out_of_date = false;
  bool emptied = false;
  bool unready = false;
  REQUIRE(live.run_until(
      [&] {
        said_out_of_date = said_out_of_date || live.store.interrupted(workloads_kind).has_value();
        emptied = emptied || live.store.count(workloads_kind) == 0;
        unready = unready || !live.ready();
        live.run_for(std::chrono::milliseconds(20));
        // The old watch can still carry the new objects: done once the new list is in.
        return watched_version(live) == "v1beta2" && live.store.count(workloads_kind) == 5 + 3 - 1 &&
               live.live->find_watch(workloads_kind)->synced() && !live.store.interrupted(workloads_kind);
      },
      std::chrono::seconds(30)));
  const double followed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - changed_at).count();
  INFO("watched at v1beta2 " << followed_s << " s after the CRD changed");
  CHECK(requests_to(proxy.requests(), new_list, false).size() >= 3);  // two refused, then listed
  CHECK(said_out_of_date);
  CHECK_FALSE(emptied);
  CHECK_FALSE(unready);
  REQUIRE(follows(live, admin, "v1beta2", std::chrono::seconds(20)));
  CHECK_FALSE(live.store.interrupted(workloads_kind).has_value());
  CHECK(live.store.completeness(workloads_kind).complete());
  CHECK(live.cached(workloads_kind).size() == 7);

  // (a) Deleted: the server deletes every Workload with it. The daemon must not keep them as if
  // current; the kind is no longer served, so its list is known, and empty.
  answer before = settled([&] { return admin.get(crd_path); });
  REQUIRE(before.ok());
  REQUIRE(settled([&] { return admin.remove(crd_path); }).ok());
  const bool gone = live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(100));
        return admin.get(crd_path).status == 404 && !live.served.serves(workloads_kind) &&
               live.store.count(workloads_kind) == 0;
      },
      std::chrono::seconds(60));
  CHECK(gone);
  CHECK(live.store.count(workloads_kind) == 0);
  CHECK(live.store.completeness(workloads_kind).complete());
  CHECK_FALSE(live.store.interrupted(workloads_kind).has_value());
  CHECK(live.ready());

  // Made again, storing v1beta1 this time while serving both: the daemon watches at v1beta2 (its
  // preference) and holds exactly the new objects, none of the old.
  json again = before.body();
  for (const char* field : {"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "finalizers",
                            "deletionTimestamp", "deletionGracePeriodSeconds"}) {
    again["metadata"].erase(field);
  }
  again.erase("status");
  serve_only(again, "", "v1beta1");
  answer made = settled([&] { return admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", again); });
  INFO(made.status << " " << made.text);
  REQUIRE(made.ok());
  create_workloads(admin, "v1beta1", "third-", 4);
  REQUIRE(follows(live, admin, "v1beta2", std::chrono::seconds(30)));
  CHECK(live.cached(workloads_kind).size() == 4);
  for (const auto& entry : live.cached(workloads_kind)) {
    CHECK(entry.first.starts_with(std::string(ns) + "/third-"));
  }
  CHECK_FALSE(live.store.interrupted(workloads_kind).has_value());
  CHECK(live.ready());
  // The other kinds went on as they were: the cache holds what the server lists.
  CHECK(live.cached({"", "Pod"}) == listed(admin, "/api/v1/pods"));
}

// Seen in the soak: an API server just restarted answered discovery before it had installed the
// CRDs' paths, and the daemon, believing that one answer, called Kueue's kinds not served, empty
// and complete, for a minute. One discovery without a kind must not drop it: it is kept (said to
// be out of date) until a second discovery, seconds later, agrees.
TEST_CASE("a kind one discovery leaves out is kept, said to be out of date, until a second discovery agrees",
          "[integration][crds]") {
  test_cluster cluster({.crds = {upstream_crds("kueue").string()}});
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());
  create_workloads(admin, "v1beta2", "w-", 4);
  fault_proxy proxy(cluster);
  live_harness live(proxy.through(kubeconfig(cluster.env("KUBECONFIG_TOKEN"))),
                    {core::make_section(), kueue::make_section()});
  watch_workloads(live, admin, "v1beta2");
  const std::map<std::string, std::string> before = live.cached(workloads_kind);

  // The restarted server's moment: Kueue's group is missing from discovery and its paths 404;
  // the dropped watches come back to a 404, which asks for discovery at once.
  const auto hidden_discoveries = [&proxy] {
    std::size_t n = 0;
    for (const proxied_request& request : requests_to(proxy.requests(), "/apis")) {
      n += request.fault == "hide" ? 1 : 0;
    }
    return n;
  };
  proxy.hide("kueue.x-k8s.io");
  proxy.drop_watches();
  bool dropped = false;
  bool said_out_of_date = false;
  const auto watch_for = [&](std::chrono::milliseconds span) {
    live.run_until(
        [&] {
          dropped = dropped || !live.served.serves(workloads_kind) || live.cached(workloads_kind) != before;
          said_out_of_date = said_out_of_date || live.store.interrupted(workloads_kind).has_value();
          live.run_for(std::chrono::milliseconds(20));
          return false;
        },
        span);
  };
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(50));
        return hidden_discoveries() >= 1;
      },
      std::chrono::seconds(20)));
  watch_for(std::chrono::milliseconds(3000));
  CHECK_FALSE(dropped);
  CHECK(said_out_of_date);
  CHECK(live.ready());
  CHECK(hidden_discoveries() == 1);  // the watch's 404s did not bring the second look sooner

  // The paths are installed before the second look: nothing was lost, and it is current again
  // (once its watch is open, which may come before the second look).
  const std::size_t discoveries_before = requests_to(proxy.requests(), "/apis").size();
  proxy.clear();
  REQUIRE(live.run_until(
      [&] {
        dropped = dropped || !live.served.serves(workloads_kind) || live.cached(workloads_kind) != before;
        live.run_for(std::chrono::milliseconds(20));
        return !live.store.interrupted(workloads_kind) && live.live->find_watch(workloads_kind) &&
               live.live->find_watch(workloads_kind)->current_phase() == kube::reflector::phase::watching &&
               requests_to(proxy.requests(), "/apis").size() > discoveries_before;
      },
      std::chrono::seconds(30)));
  CHECK_FALSE(dropped);
  CHECK(live.cached(workloads_kind) == server_workloads(admin, "v1beta2"));

  // Left out by two discoveries in a row: gone, its list known and empty, a few seconds after the
  // first that lacked it.
  proxy.hide("kueue.x-k8s.io");
  proxy.drop_watches();
  const std::size_t hidden_before = hidden_discoveries();
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(50));
        return hidden_discoveries() > hidden_before;
      },
      std::chrono::seconds(20)));
  const auto first_lacking = std::chrono::steady_clock::now();
  REQUIRE(live.run_until(
      [&] {
        live.run_for(std::chrono::milliseconds(50));
        return !live.served.serves(workloads_kind);
      },
      std::chrono::seconds(20)));
  const double dropped_after_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - first_lacking).count();
  INFO("dropped " << dropped_after_s << " s after the first discovery without it");
  CHECK(dropped_after_s >= 4.0);
  CHECK(hidden_discoveries() == hidden_before + 2);
  CHECK(live.store.count(workloads_kind) == 0);
  CHECK(live.store.completeness(workloads_kind).complete());
  CHECK_FALSE(live.store.interrupted(workloads_kind).has_value());
  CHECK(live.ready());
  proxy.clear();
}
