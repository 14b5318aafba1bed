#include "kube/document_poller.hpp"

#include <catch2/catch.hpp>

#include "kube_test_support.hpp"

using namespace sextant;
using namespace sextant::kube;
using sextant::kube::testing::run_until;

namespace {

const kind_key cluster_queue{"kueue.x-k8s.io", "ClusterQueue"};

polled_document pending_workloads() {
  polled_document document;
  document.id = "pendingworkloads";
  document.of = cluster_queue;
  document.group = "visibility.kueue.x-k8s.io";
  document.versions = {"v1beta2", "v1beta1"};
  document.resource = "clusterqueues";
  document.subresource = "pendingworkloads";
  document.interval = std::chrono::seconds(60);
  return document;
}

// A poller over a store with ClusterQueue "cq", whose fetch answers from `answer` and records
// every target it was asked for.
struct poller_harness {
  net::io_context io;
  object_store store;
  served_kinds served;
  polled_documents documents;
  fixed_clock wall{sextant::testing::at("2026-11-29T12:00:00Z")};
  std::vector<std::string> targets;
  http_reply answer{200, "application/json", R"({"kind":"PendingWorkloadsSummary","items":[]})", ""};
  document_poller poller{io.get_executor(),
                         {pending_workloads()},
                         store,
                         served,
                         documents,
                         wall,
                         [this](std::string target) -> net::awaitable<http_reply> {
                           targets.push_back(std::move(target));
                           co_return answer;
                         },
                         poller_options{std::chrono::milliseconds(5), std::chrono::seconds(300)}};

  poller_harness() {
    std::string error;
    store.upsert(make_object(json{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                                  {"kind", "ClusterQueue"},
                                  {"metadata", {{"name", "cq"}, {"uid", "u-cq"}}}},
                             wall.now(), &error));
  }
  void serve(std::vector<std::string> versions) {
    served.add({{"visibility.kueue.x-k8s.io", "ClusterQueue"}, "clusterqueues", false, std::move(versions)});
  }
  const document_key key{"pendingworkloads", "", "cq"};
  // Runs the loop a little: long enough for several ticks.
  void spin() {
    io.restart();
    io.run_for(std::chrono::milliseconds(60));
  }
};

}  // namespace

TEST_CASE("a document is read once asked for, from the preferred version the cluster serves", "[kube][poller]") {
  poller_harness h;
  h.serve({"v1beta1", "v1beta2"});
  h.poller.start();
  h.spin();
  CHECK(h.targets.empty());  // nobody asked yet
  h.documents.ask(h.key);
  REQUIRE(run_until(h.io, [&h] { return h.documents.find(h.key) != nullptr; }));
  REQUIRE(h.targets.size() == 1);
  CHECK(h.targets[0] == "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads");
  CHECK(string_or(h.documents.find(h.key)->body(), {"kind"}) == "PendingWorkloadsSummary");
  CHECK(h.documents.find(h.key)->read_at == h.wall.now());
  h.spin();
  CHECK(h.targets.size() == 1);  // not again before its interval
  h.poller.stop();
  h.spin();
}

TEST_CASE("nothing is read where the API is not served, and a failed read drops the old answer", "[kube][poller]") {
  poller_harness h;
  h.documents.ask(h.key);
  h.documents.set(h.key, json{{"stale", true}}, h.wall.now());
  h.poller.start();
  h.spin();
  // Before discovery is read nothing is said: "not served" would be a guess.
  CHECK(h.targets.empty());
  CHECK(h.documents.find(h.key) != nullptr);
  // Discovery read, without the API: the API is gone, so is what it said.
  h.served.add({{"", "Pod"}, "pods", true, {"v1"}});
  h.spin();
  CHECK(h.targets.empty());
  CHECK(h.documents.find(h.key) == nullptr);

  h.serve({"v1beta1"});
  h.answer = http_reply{403, "application/json",
                        R"({"kind":"Status","status":"Failure","reason":"Forbidden","message":"no","code":403})", ""};
  h.documents.ask(h.key);
  REQUIRE(run_until(h.io, [&h] { return !h.targets.empty(); }));
  CHECK(h.targets[0] == "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cq/pendingworkloads");
  h.spin();
  CHECK(h.documents.find(h.key) == nullptr);
  h.poller.stop();
  h.spin();
}

TEST_CASE("a document of an object that no longer exists is dropped and not read", "[kube][poller]") {
  poller_harness h;
  h.serve({"v1beta2"});
  const document_key gone{"pendingworkloads", "", "deleted-queue"};
  h.documents.ask(gone);
  h.documents.set(gone, json::object(), h.wall.now());
  h.poller.start();
  h.spin();
  CHECK(h.targets.empty());
  CHECK(h.documents.find(gone) == nullptr);
  h.poller.stop();
  h.spin();
}

TEST_CASE("namespaced documents are read under their namespace", "[kube][poller]") {
  polled_document local = pending_workloads();
  local.resource = "localqueues";
  local.namespaced = true;
  CHECK(document_poller::target(local, "v1beta2", {"x", "team-a", "lq"}) ==
        "/apis/visibility.kueue.x-k8s.io/v1beta2/namespaces/team-a/localqueues/lq/pendingworkloads");
}
