#include <catch2/catch.hpp>

#include "kueue_test_support.hpp"
#include "sections/kueue/kueue_section.hpp"

using namespace sextant;
using namespace sextant::kueue;
using namespace sextant::kueue::testing;
using sextant::testing::fixture_cluster;
using sextant::testing::upstream_documents;

namespace {

json cluster_queue(const std::string& api_version, const std::string& name, json spec, json conditions) {
  // `{condition(...)}` is the condition itself with clang (see kueue_test_support.cpp): a list either way.
  if (conditions.is_object()) {
    conditions = json::array({std::move(conditions)});
  }
  return json{{"apiVersion", api_version},
              {"kind", "ClusterQueue"},
              {"metadata", {{"name", name}, {"uid", "cq-" + name}}},
              {"spec", std::move(spec)},
              {"status", {{"conditions", std::move(conditions)}}}};
}

}  // namespace

TEST_CASE("a Cluster Queue's state is its Active condition, as Kueue writes it", "[kueue][queues]") {
  fixture_cluster cluster;
  load(cluster,
       {excerpt_object("kueue/cluster-queue-active.yaml", "kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "ready"),
        excerpt_object("kueue/cluster-queue-flavor-not-found.yaml", "kueue.x-k8s.io/v1beta2", "ClusterQueue", "",
                       "broken")});
  auto context = cluster.context();
  object_state ready = cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "ready"), context);
  CHECK(ready.label == "Active");
  CHECK(ready.message == "Can admit new workloads");
  object_state broken = cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "broken"), context);
  CHECK(broken.label == "Inactive");
  CHECK(broken.reason == "FlavorNotFound");
  CHECK(broken.message == "Can't admit new workloads: FlavorNotFound");
}

TEST_CASE("a stop and a deletion are said as such; every other reason is Inactive with Kueue's message",
          "[kueue][queues]") {
  fixture_cluster cluster;
  const std::string at = "2026-11-29T11:00:00Z";
  load(cluster,
       {cluster_queue("kueue.x-k8s.io/v1beta2", "held", {{"stopPolicy", "Hold"}},
                      {condition("Active", "False", "Stopped", "Can't admit new workloads: is stopped.", at)}),
        cluster_queue("kueue.x-k8s.io/v1beta1", "going", json::object(),
                      {condition("Active", "False", "Terminating",
                                 "Can't admit new workloads; clusterQueue is terminating", at)}),
        cluster_queue("kueue.x-k8s.io/v1beta2", "no-check", json::object(),
                      {condition("Active", "False", "AdmissionCheckNotFound",
                                 "Can't admit new workloads: references missing AdmissionCheck(s): [prov].", at)}),
        cluster_queue("kueue.x-k8s.io/v1beta2", "silent", json::object(), json::array()),
        cluster_queue("kueue.x-k8s.io/v1beta2", "silent-stopped", {{"stopPolicy", "HoldAndDrain"}}, json::array())});
  auto context = cluster.context();
  auto state = [&](const char* name) {
    return cluster_queue_state(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", name), context);
  };
  CHECK(state("held").label == "Stopped");
  CHECK(state("going").label == "Terminating");
  CHECK(state("no-check").label == "Inactive");
  CHECK(state("no-check").message == "Can't admit new workloads: references missing AdmissionCheck(s): [prov].");
  CHECK(state("silent").label == "Inactive");
  CHECK_THAT(state("silent").message, Catch::Contains("no Active condition"));
  CHECK(state("silent-stopped").label == "Stopped");
}

TEST_CASE("a Local Queue's state reads the same way, from an inactive one too", "[kueue][queues]") {
  fixture_cluster cluster;
  json stopped = {
      {"apiVersion", "kueue.x-k8s.io/v1beta1"},
      {"kind", "LocalQueue"},
      {"metadata", {{"name", "paused"}, {"namespace", "team-a"}}},
      {"spec", {{"clusterQueue", "cq"}, {"stopPolicy", "Hold"}}},
      {"status",
       {{"conditions", {condition("Active", "False", "Stopped", "LocalQueue is stopped", "2026-11-29T11:00:00Z")}}}}};
  load(cluster,
       {excerpt_object("kueue/local-queue-inactive.yaml", "kueue.x-k8s.io/v1beta2", "LocalQueue", "team-a", "orphan"),
        stopped});
  auto context = cluster.context();
  object_state orphan = local_queue_state(*cluster.get("kueue.x-k8s.io", "LocalQueue", "team-a", "orphan"), context);
  CHECK(orphan.label == "Inactive");
  CHECK(orphan.reason == "ClusterQueueIsInactive");
  CHECK(orphan.message == "Can't submit new workloads to clusterQueue");
  CHECK(local_queue_state(*cluster.get("kueue.x-k8s.io", "LocalQueue", "team-a", "paused"), context).label ==
        "Stopped");
}

TEST_CASE("both versions' setups load and read by fields", "[kueue][queues]") {
  fixture_cluster cluster;
  load(cluster, upstream_documents("kueue/single-queue-setup-v1beta1.yaml"));
  load(cluster, upstream_documents("kueue/cohort-cluster-queues.yaml"));
  auto context = cluster.context();
  json old_summary = json::object();
  cluster_queue_summary(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "cluster-queue"), context, old_summary);
  CHECK(old_summary["cohort"].is_null());
  json new_summary = json::object();
  cluster_queue_summary(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "training-queue"), context, new_summary);
  CHECK(new_summary["cohort"] == "platform");
  // A v1beta1 queue written with `cohort` reads the same as v1beta2's `cohortName`.
  load(cluster, {cluster_queue("kueue.x-k8s.io/v1beta1", "old-style", {{"cohort", "shared"}}, json::array())});
  json old_cohort = json::object();
  cluster_queue_summary(*cluster.get("kueue.x-k8s.io", "ClusterQueue", "", "old-style"), context, old_cohort);
  CHECK(old_cohort["cohort"] == "shared");
}

TEST_CASE("admission checks are Active or Inactive from their condition", "[kueue][queues]") {
  fixture_cluster cluster;
  load(cluster, upstream_documents("kueue/admission-check-provisioning.yaml"));
  auto context = cluster.context();
  object_ptr check;
  for (const object_ptr& object : cluster.store.list(admission_check_kind)) {
    check = object;
  }
  REQUIRE(check);
  CHECK(admission_check_state(*check, context).label == "Inactive");
  json active = {
      {"apiVersion", "kueue.x-k8s.io/v1beta2"},
      {"kind", "AdmissionCheck"},
      {"metadata", {{"name", "ok"}}},
      {"spec", {{"controllerName", "kueue.x-k8s.io/provisioning-request"}}},
      {"status",
       {{"conditions",
         {condition("Active", "True", "Active", "The admission check is active", "2026-11-29T11:00:00Z")}}}}};
  load(cluster, {active});
  CHECK(admission_check_state(*cluster.get("kueue.x-k8s.io", "AdmissionCheck", "", "ok"), context).label == "Active");
}
