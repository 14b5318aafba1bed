#include <catch2/catch.hpp>

#include <cstdio>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;

namespace {

json local_queue(const std::string& namespace_, const std::string& name, const std::string& cluster_queue) {
  return json{
      {"apiVersion", v1beta2},
      {"kind", "LocalQueue"},
      {"metadata", {{"name", name}, {"namespace", namespace_}, {"uid", "lq-" + namespace_ + name}}},
      {"spec", {{"clusterQueue", cluster_queue}}},
      {"status",
       {{"conditions",
         {condition("Active", "True", "Ready", "Can submit new workloads to localQueue", "2026-11-29T08:00:00Z")}}}}};
}

json cluster_queue(const std::string& name) {
  return json{
      {"apiVersion", v1beta2},
      {"kind", "ClusterQueue"},
      {"metadata", {{"name", name}, {"uid", "cq-" + name}}},
      {"spec", {{"resourceGroups", json::array()}}},
      {"status",
       {{"conditions", {condition("Active", "True", "Ready", "Can admit new workloads", "2026-11-29T08:00:00Z")}}}}};
}

std::string minute(int m) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "2026-11-29T10:%02d:00Z", m);
  return buffer;
}

std::string message(int i) {
  return "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, " +
         std::to_string(i + 1) + " more needed";
}

// 51 waiting in team-a/lq-a (minutes 1..51 past ten, written in reverse), one older in
// team-b/lq-b, and Workloads that do not wait: admitted, finished, deactivated, another queue's.
std::vector<json> queue_objects() {
  std::vector<json> objects = {cluster_queue("cq"), cluster_queue("cq2"), local_queue("team-a", "lq-a", "cq"),
                               local_queue("team-b", "lq-b", "cq"), local_queue("team-c", "other", "cq2")};
  for (int i = 50; i >= 0; --i) {
    objects.push_back(workload(v1beta2, "team-a", "wait-" + std::to_string(i), "lq-a",
                               {condition("QuotaReserved", "False", "Pending", message(i), minute(i + 1))}));
  }
  objects.push_back(workload(
      v1beta2, "team-b", "oldest", "lq-b",
      {condition("QuotaReserved", "False", "Inadmissible", "ClusterQueue cq is stopped", "2026-11-29T09:30:00Z")}));
  objects.push_back(
      workload(v1beta2, "team-a", "running", "lq-a",
               {condition("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", minute(0)),
                condition("Admitted", "True", "Admitted", "The workload is admitted", minute(0))}));
  objects.push_back(workload(v1beta2, "team-a", "done", "lq-a",
                             {condition("Finished", "True", "Succeeded", "Job finished successfully", minute(0))}));
  objects.push_back(workload(v1beta2, "team-a", "off", "lq-a",
                             {condition("QuotaReserved", "False", "Pending", "", minute(0))}, json::object(),
                             {{"active", false}}));
  objects.push_back(workload(v1beta2, "team-c", "elsewhere", "other",
                             {condition("QuotaReserved", "False", "Pending", "x", "2026-11-29T09:00:00Z")}));
  return objects;
}

json cluster_queue_waiting(fixture_cluster& cluster, const std::string& name, const position_lookup& positions = {}) {
  details_view view;
  cluster_queue_details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", name), cluster.context(), view, positions);
  return view.blocks["waiting"];
}

}  // namespace

TEST_CASE("a Cluster Queue lists its Local Queues' waiting Workloads, oldest first, at most 50", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  mark_complete(cluster);
  json waiting = cluster_queue_waiting(cluster, "cq");
  CHECK(waiting["total"] == 52);
  REQUIRE(waiting["items"].size() == 50);
  CHECK(waiting["incomplete"] == false);
  CHECK(waiting["incompleteReason"].is_null());
  const json& first = waiting["items"][0];
  CHECK(first["namespace"] == "team-b");
  CHECK(first["name"] == "oldest");
  CHECK(first["since"] == "2026-11-29T09:30:00Z");
  CHECK(first["state"] == "Inadmissible");
  CHECK(first["reason"] == "Inadmissible");
  CHECK(first["message"] == "ClusterQueue cq is stopped");
  CHECK(first["path"] == "/api/v1/kueue/workloads/team-b/oldest");
  CHECK(first["position"].is_null());
  const json& second = waiting["items"][1];
  CHECK(second["name"] == "wait-0");
  CHECK(second["message"] == message(0));
  CHECK(second["localQueue"] == "lq-a");
  for (std::size_t i = 1; i < waiting["items"].size(); ++i) {
    CHECK(waiting["items"][i - 1]["since"].get<std::string>() <= waiting["items"][i]["since"].get<std::string>());
  }
  // The 51st of lq-a is the one left off.
  CHECK(waiting["items"].back()["name"] == "wait-48");
}

TEST_CASE("a Local Queue lists its own waiting Workloads", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  mark_complete(cluster);
  details_view view;
  local_queue_details(*cluster.get("kueue.x-k8s.io", "LocalQueue", "team-a", "lq-a"), cluster.context(), view, {});
  CHECK(view.blocks["waiting"]["total"] == 51);
  CHECK(view.blocks["waiting"]["items"].size() == 50);
  CHECK(view.blocks["waiting"]["items"][0]["name"] == "wait-0");
  CHECK(view.blocks["clusterQueueLink"]["name"] == "cq");
  CHECK(view.blocks["clusterQueueLink"]["exists"] == true);
  CHECK(view.blocks["clusterQueueLink"]["state"] == "Active");
}

TEST_CASE("positions come from the visibility lookup, null without one", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  mark_complete(cluster);
  position_lookup positions = [](const cached_object& workload, const view_context&) -> std::optional<queue_position> {
    if (workload.name == "oldest") {
      return queue_position{0, 0};
    }
    if (workload.name == "wait-0") {
      return queue_position{1, 0};
    }
    return std::nullopt;
  };
  json waiting = cluster_queue_waiting(cluster, "cq", positions);
  CHECK(waiting["items"][0]["position"] == 0);
  CHECK(waiting["items"][1]["position"] == 1);
  CHECK(waiting["items"][2]["position"].is_null());

  details_view view;
  local_queue_details(*cluster.get("kueue.x-k8s.io", "LocalQueue", "team-a", "lq-a"), cluster.context(), view,
                      positions);
  CHECK(view.blocks["waiting"]["items"][0]["position"] == 0);

  // The section takes the lookup when it is made.
  section with_positions = make_section(positions);
  for (const resource_def& r : with_positions.resources) {
    if (r.id == "clusterqueues") {
      details_view via_section;
      r.details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cq"), cluster.context(), via_section);
      CHECK(via_section.blocks["waiting"]["items"][1]["position"] == 1);
    }
  }
}

TEST_CASE("a waiting list says when it may be incomplete", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  SECTION("Workloads not read yet") {
    json waiting = cluster_queue_waiting(cluster, "cq");
    CHECK(waiting["incomplete"] == true);
    CHECK_THAT(waiting["incompleteReason"].get<std::string>(), Catch::Contains("not read yet"));
  }
  SECTION("the list was cut at the cap") {
    cluster.store.set_completeness(workload_kind, {list_completeness::state::truncated, "cut at 5000 Workloads"});
    json waiting = cluster_queue_waiting(cluster, "cq");
    CHECK(waiting["incomplete"] == true);
    // The same words as every list answer's incompleteReason.
    CHECK(waiting["incompleteReason"] == "cut at 5000 Workloads");
  }
  SECTION("the list cannot be read") {
    cluster.store.set_completeness(workload_kind, {list_completeness::state::unreadable, "forbidden by RBAC"});
    CHECK_THAT(cluster_queue_waiting(cluster, "cq")["incompleteReason"].get<std::string>(),
               Catch::Contains("forbidden by RBAC"));
  }
}

TEST_CASE("past 5000 Workloads the list may be incomplete", "[kueue][waiting]") {
  fixture_cluster cluster;
  std::vector<json> objects = {cluster_queue("big"), local_queue("bulk", "lq", "big")};
  for (int i = 0; i < 5001; ++i) {
    objects.push_back(workload(v1beta2, "bulk", "w-" + std::to_string(i), "lq",
                               {condition("QuotaReserved", "False", "Pending", "x", "2026-11-29T10:00:00Z")}));
  }
  load(cluster, objects);
  mark_complete(cluster);
  json waiting = cluster_queue_waiting(cluster, "big");
  CHECK(waiting["total"] == 5001);
  CHECK(waiting["items"].size() == 50);
  CHECK(waiting["incomplete"] == true);
  CHECK(waiting["incompleteReason"] == "cut at 5000 Workloads");
}

TEST_CASE("positions come from the polled pending workloads of the Workload's Cluster Queue", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  mark_complete(cluster);
  // A PendingWorkloadsSummary as Kueue's visibility API answers for clusterqueues/cq.
  polled_documents documents;
  documents.set({pending_workloads_document, "", "cq"}, json::parse(R"({
    "kind": "PendingWorkloadsSummary", "apiVersion": "visibility.kueue.x-k8s.io/v1beta2", "metadata": {},
    "items": [
      {"metadata": {"name": "wait-0", "namespace": "team-a"}, "priority": 10, "localQueueName": "lq-a",
       "positionInClusterQueue": 0, "positionInLocalQueue": 0},
      {"metadata": {"name": "oldest", "namespace": "team-b"}, "priority": 0, "localQueueName": "lq-b",
       "positionInClusterQueue": 1, "positionInLocalQueue": 0},
      {"metadata": {"name": "wait-1", "namespace": "team-a"}, "priority": 0, "localQueueName": "lq-a",
       "positionInClusterQueue": 2, "positionInLocalQueue": 1}
    ]})"),
                sextant::testing::at("2026-11-29T12:00:00Z"));
  view_context context = cluster.context();
  context.documents = &documents;

  details_view cq_view;
  cluster_queue_details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cq"), context, cq_view,
                        position_from_visibility);
  const json& items = cq_view.blocks["waiting"]["items"];
  CHECK(items[0]["name"] == "oldest");
  CHECK(items[0]["position"] == 1);  // Kueue's order, not the list's oldest-first order
  CHECK(items[1]["name"] == "wait-0");
  CHECK(items[1]["position"] == 0);
  CHECK(items[2]["position"] == 2);
  CHECK(items[3]["position"].is_null());  // wait-2: not in the summary (past its limit, say)
  CHECK_THAT(cq_view.blocks["waiting"]["positionsUnknownReason"].get<std::string>(),
             Catch::Contains("Kueue's visibility API did not list it when read at"));

  details_view lq_view;
  local_queue_details(*cluster.get("kueue.x-k8s.io", "LocalQueue", "team-a", "lq-a"), context, lq_view,
                      position_from_visibility);
  CHECK(lq_view.blocks["waiting"]["items"][0]["position"] == 0);
  CHECK(lq_view.blocks["waiting"]["items"][1]["position"] == 1);

  // Looking asked for the summary, so the live source keeps reading it; nothing else was asked.
  auto asked =
      documents.asked_since(pending_workloads_document, std::chrono::steady_clock::now() - std::chrono::minutes(1));
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].name == "cq");

  // The section reads positions this way by default, and declares what the live source polls.
  section kueue_section = make_section();
  REQUIRE(kueue_section.documents.size() == 1);
  CHECK(kueue_section.documents[0].group == "visibility.kueue.x-k8s.io");
  CHECK(kueue_section.documents[0].versions == std::vector<std::string>{"v1beta2", "v1beta1"});
  for (const resource_def& r : kueue_section.resources) {
    if (r.id == "clusterqueues") {
      details_view via_section;
      r.details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cq"), context, via_section);
      CHECK(via_section.blocks["waiting"]["items"][0]["position"] == 1);
    }
  }
  // Without documents (snapshot mode) every position is null, and the list says why.
  json from_snapshot = cluster_queue_waiting(cluster, "cq", position_from_visibility);
  CHECK(from_snapshot["items"][0]["position"].is_null());
  CHECK_THAT(from_snapshot["positionsUnknownReason"].get<std::string>(),
             Catch::Contains("read only from a live cluster"));
}

TEST_CASE("a waiting list says why positions are unknown: not read yet, API down, a failed read", "[kueue][waiting]") {
  fixture_cluster cluster;
  load(cluster, queue_objects());
  mark_complete(cluster);
  polled_documents documents;
  view_context context = cluster.context();
  context.documents = &documents;
  auto waiting = [&] {
    details_view view;
    cluster_queue_details(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cq"), context, view,
                          position_from_visibility);
    return view.blocks["waiting"];
  };
  auto reason = [](const json& list) { return list["positionsUnknownReason"].get<std::string>(); };

  json first = waiting();
  CHECK(first["total"] == 52);  // they wait: only where they stand is not known
  CHECK(first["items"][0]["position"].is_null());
  CHECK_THAT(reason(first), Catch::Contains("not read yet"));

  // Registered, but its server does not answer: the whole API, every Cluster Queue.
  documents.set_missing_all(pending_workloads_document,
                            "the API server lists visibility.kueue.x-k8s.io but its server does not answer");
  CHECK_THAT(reason(waiting()), Catch::Contains("cannot be read: the API server lists visibility.kueue.x-k8s.io"));
  // One read failed: its own words come first.
  const document_key cq{pending_workloads_document, "", "cq"};
  documents.set_missing(cq, "GET /apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads: 503");
  CHECK_THAT(reason(waiting()), Catch::Contains("pendingworkloads: 503"));

  // Read: the failures are forgotten; who is not in the summary is said to be missing from it.
  documents.set(cq, json::parse(R"({"items": [{"metadata": {"namespace": "team-b", "name": "oldest"},
                                               "positionInClusterQueue": 0, "positionInLocalQueue": 0}]})"),
                sextant::testing::at("2026-11-29T12:00:00Z"));
  CHECK(documents.missing_because(cq).empty());
  json read = waiting();
  CHECK(read["items"][0]["position"] == 0);
  CHECK_THAT(reason(read), Catch::Contains("did not list it when read at 2026-11-29T12:00:00Z"));
}
