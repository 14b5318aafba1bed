#include "kube/discovery.hpp"

#include <catch2/catch.hpp>

#include "kube/api_lister_watcher.hpp"
#include "runtime/watch_plan.hpp"
#include "store/version_priority.hpp"

using namespace sextant;
using namespace sextant::kube;

namespace {

// The shape kube-apiserver answers to /apis with the aggregated-discovery Accept header.
const char* aggregated_apis = R"({
  "kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {},
  "items": [
    {"metadata": {"name": "kueue.x-k8s.io", "creationTimestamp": null},
     "versions": [
       {"version": "v1beta2", "freshness": "Current", "resources": [
         {"resource": "workloads", "responseKind": {"group": "kueue.x-k8s.io", "version": "v1beta2", "kind": "Workload"},
          "scope": "Namespaced", "singularResource": "workload",
          "verbs": ["delete","get","list","patch","create","update","watch"],
          "subresources": [{"subresource": "status", "responseKind": {"kind": "Workload"}, "verbs": ["get","patch","update"]}]},
         {"resource": "clusterqueues", "responseKind": {"group": "kueue.x-k8s.io", "version": "v1beta2", "kind": "ClusterQueue"},
          "scope": "Cluster", "singularResource": "clusterqueue", "verbs": ["get","list","watch"]}]},
       {"version": "v1beta1", "freshness": "Current", "resources": [
         {"resource": "workloads", "responseKind": {"group": "kueue.x-k8s.io", "version": "v1beta1", "kind": "Workload"},
          "scope": "Namespaced", "verbs": ["get","list","watch"]},
         {"resource": "clusterqueues", "responseKind": {"group": "kueue.x-k8s.io", "version": "v1beta1", "kind": "ClusterQueue"},
          "scope": "Cluster", "verbs": ["get","list","watch"]}]}]},
    {"metadata": {"name": "batch"},
     "versions": [{"version": "v1", "freshness": "Current", "resources": [
       {"resource": "jobs", "responseKind": {"group": "", "version": "", "kind": "Job"}, "scope": "Namespaced",
        "verbs": ["get","list","watch"], "subresources": [{"subresource": "status", "responseKind": {"group": "", "version": "", "kind": "Job"}}]}]}]},
    {"metadata": {"name": "metrics.k8s.io"},
     "versions": [{"version": "v1beta1", "freshness": "Stale"}]},
    {"metadata": {"name": "autoscaling"},
     "versions": [{"version": "v2", "freshness": "Current", "resources": [
       {"resource": "horizontalpodautoscalers", "responseKind": {"group": "autoscaling", "version": "v2", "kind": "HorizontalPodAutoscaler"},
        "scope": "Namespaced", "verbs": ["list","watch"]}]}]}
  ]})";

const char* aggregated_api = R"({
  "kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {},
  "items": [{"metadata": {"creationTimestamp": null}, "versions": [{"version": "v1", "freshness": "Current", "resources": [
    {"resource": "pods", "responseKind": {"group": "", "version": "v1", "kind": "Pod"}, "scope": "Namespaced",
     "verbs": ["create","delete","get","list","watch"],
     "subresources": [{"subresource": "log", "responseKind": {"kind": "Pod"}, "verbs": ["get"]}]},
    {"resource": "nodes", "responseKind": {"group": "", "version": "v1", "kind": "Node"}, "scope": "Cluster", "verbs": ["get","list","watch"]}]}]}]})";

}  // namespace

TEST_CASE("aggregated discovery lists kinds with scope, plural and versions in preference order", "[kube][discovery]") {
  discovery_document document;
  parse_aggregated_discovery(json::parse(aggregated_api), document);
  parse_aggregated_discovery(json::parse(aggregated_apis), document);
  CHECK(document.aggregated);
  CHECK(document.incomplete_groups == std::vector<std::string>{"metrics.k8s.io"});

  served_kinds served;
  apply_discovery(document, served);
  const served_kind* pod = served.find({"", "Pod"});
  REQUIRE(pod);
  CHECK(pod->plural == "pods");
  CHECK(pod->namespaced);
  CHECK(pod->versions == std::vector<std::string>{"v1"});
  const served_kind* node = served.find({"", "Node"});
  REQUIRE(node);
  CHECK_FALSE(node->namespaced);
  const served_kind* workload = served.find({"kueue.x-k8s.io", "Workload"});
  REQUIRE(workload);
  CHECK(workload->plural == "workloads");
  CHECK(workload->versions == std::vector<std::string>{"v1beta2", "v1beta1"});
  CHECK(served.find({"kueue.x-k8s.io", "ClusterQueue"})->namespaced == false);
  CHECK(served.serves({"autoscaling", "HorizontalPodAutoscaler"}));
  // Built-in groups leave responseKind's group and version empty: they are the resource's own.
  const served_kind* job = served.find({"batch", "Job"});
  REQUIRE(job);
  CHECK(job->plural == "jobs");
  CHECK(job->versions == std::vector<std::string>{"v1"});
  // A stale group is registered but did not answer: said so, for views that read it.
  CHECK(served.unanswered("metrics.k8s.io"));
  CHECK_FALSE(served.unanswered("batch"));
}

TEST_CASE("a new discovery replaces the old, but keeps groups that did not answer", "[kube][discovery]") {
  served_kinds served;
  served.add(served_kind{{"metrics.k8s.io", "PodMetrics"}, "pods", true, {"v1beta1"}});
  served.add(served_kind{{"jobset.x-k8s.io", "JobSet"}, "jobsets", true, {"v1alpha2"}});
  discovery_document document;
  parse_aggregated_discovery(json::parse(aggregated_apis), document);
  apply_discovery(document, served);
  CHECK(served.serves({"metrics.k8s.io", "PodMetrics"}));     // stale this time: kept
  CHECK_FALSE(served.serves({"jobset.x-k8s.io", "JobSet"}));  // its CRD is gone
  CHECK(served.serves({"kueue.x-k8s.io", "Workload"}));
}

TEST_CASE("per-group discovery documents are read when aggregated discovery is not offered", "[kube][discovery]") {
  discovery_document document;
  parse_resource_list(json::parse(R"({"kind":"APIResourceList","groupVersion":"v1","resources":[
      {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get","list","watch"]},
      {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch"]},
      {"name":"nodes","namespaced":false,"kind":"Node","verbs":["list","watch"]}]})"),
                      "", "v1", document);
  parse_group_list(json::parse(R"({"kind":"APIGroupList","groups":[
      {"name":"resource.k8s.io","versions":[{"groupVersion":"resource.k8s.io/v1beta1","version":"v1beta1"},
                                            {"groupVersion":"resource.k8s.io/v1","version":"v1"}],
       "preferredVersion":{"groupVersion":"resource.k8s.io/v1","version":"v1"}}]})"),
                   document);
  parse_resource_list(json::parse(R"({"kind":"APIResourceList","groupVersion":"resource.k8s.io/v1beta1","resources":[
      {"name":"resourceclaims","namespaced":true,"kind":"ResourceClaim","verbs":["list","watch"]}]})"),
                      "resource.k8s.io", "v1beta1", document);
  parse_resource_list(json::parse(R"({"kind":"APIResourceList","groupVersion":"resource.k8s.io/v1","resources":[
      {"name":"resourceclaims","namespaced":true,"kind":"ResourceClaim","verbs":["list","watch"]},
      {"name":"resourceclaims/status","namespaced":true,"kind":"ResourceClaim","verbs":["get"]}]})"),
                      "resource.k8s.io", "v1", document);
  CHECK_FALSE(document.aggregated);
  served_kinds served;
  apply_discovery(document, served);
  CHECK(served.find({"", "Pod"})->plural == "pods");
  CHECK(served.find({"", "Node"})->namespaced == false);
  // The group's preferred version comes first whatever order the documents were read in.
  CHECK(served.find({"resource.k8s.io", "ResourceClaim"})->versions == std::vector<std::string>{"v1", "v1beta1"});
  CHECK(parse_server_minor(json::parse(R"({"major":"1","minor":"37+"})")) == 37);
  CHECK(parse_server_minor(json::parse(R"({"major":"1"})")) == 0);
  // Found by fuzz_discovery: a run of digits no minor has overflowed an int.
  CHECK(parse_server_minor(json::parse(R"({"minor":"74244444444444444444+"})")) == 0);
}

TEST_CASE("the version read is the section's first preference the cluster serves", "[kube][discovery]") {
  served_kind kueue{{"kueue.x-k8s.io", "Workload"}, "workloads", true, {"v1beta1", "v1beta2"}};
  CHECK(choose_version(kueue, {"v1beta2", "v1beta1"}) == "v1beta2");
  kueue.versions = {"v1beta1"};
  CHECK(choose_version(kueue, {"v1beta2", "v1beta1"}) == "v1beta1");
  served_kind dra{{"resource.k8s.io", "ResourceClaim"}, "resourceclaims", true, {"v1beta2", "v1alpha3"}};
  CHECK(choose_version(dra, {"v1", "v1beta2", "v1beta1", "v1alpha3"}) == "v1beta2");
  CHECK(choose_version(dra, {}) == "v1beta2");  // no preference: the server's
}

namespace {

resource_def resource(const std::string& id, kind_key type) {
  resource_def r;
  r.id = id;
  r.plural = id;
  r.type = std::move(type);
  return r;
}

}  // namespace

TEST_CASE("the watch plan covers every section that reads a served kind", "[kube][discovery]") {
  section core;
  core.id = "core";
  core.version_preference = {"v1"};
  core.resources.push_back(resource("pods", {"", "Pod"}));
  core.resources.push_back(resource("nodes", {"", "Node"}));

  section gpu;
  gpu.id = "gpu-operator";
  resource_def gpu_nodes = resource("gpunodes-source", {"", "Node"});
  gpu_nodes.label_selector = "nvidia.com/gpu.present=true";
  gpu_nodes.cap = 500;
  gpu.resources.push_back(gpu_nodes);
  resource_def computed;
  computed.id = "gpunodes";  // a computed page: no kind of its own
  gpu.resources.push_back(computed);

  section kueue;
  kueue.id = "kueue";
  kueue.group = "kueue.x-k8s.io";
  kueue.version_preference = {"v1beta2", "v1beta1"};
  resource_def workloads = resource("workloads", {"kueue.x-k8s.io", "Workload"});
  workloads.cap = 5000;
  workloads.on_demand_category = "kueue-workloads";
  kueue.resources.push_back(workloads);
  resource_def cohorts = resource("cohorts", {"kueue.x-k8s.io", "Cohort"});
  kueue.resources.push_back(cohorts);

  section jobset;
  jobset.id = "jobset";
  resource_def children = resource("jobset-pods", {"", "Pod"});
  children.label_selector = "jobset.sigs.k8s.io/jobset-name";
  jobset.resources.push_back(children);

  served_kinds served;
  served.add({{"", "Pod"}, "pods", true, {"v1"}});
  served.add({{"", "Node"}, "nodes", false, {"v1"}});
  served.add({{"kueue.x-k8s.io", "Workload"}, "workloads", true, {"v1beta2", "v1beta1"}});

  auto plan = plan_watches({core, gpu, kueue, jobset}, served);
  REQUIRE(plan.size() == 3);  // Cohort is not served: no watch
  const watch_spec& pods = plan[0];
  CHECK(pods.name() == "pods");
  CHECK(pods.label_selector.empty());  // core reads every pod; the JobSet selector cannot narrow it
  const watch_spec& nodes = plan[1];
  CHECK(nodes.name() == "nodes");
  CHECK_FALSE(nodes.namespaced);
  CHECK(nodes.label_selector.empty());
  CHECK(nodes.cap == 0);  // the core Nodes page has no cap
  const watch_spec& wl = plan[2];
  CHECK(wl.name() == "workloads.kueue.x-k8s.io");
  CHECK(wl.version == "v1beta2");
  CHECK(wl.cap == 5000);
  CHECK(wl.demand_categories == std::vector<std::string>{"kueue-workloads"});

  auto gpu_only = plan_watches({gpu}, served);
  REQUIRE(gpu_only.size() == 1);
  CHECK(gpu_only[0].label_selector == "nvidia.com/gpu.present=true");
  CHECK(gpu_only[0].cap == 500);

  // Kinds a section reads but none shows (the Queue section's job kinds): on demand only, each
  // only where served, and a kind a section shows is watched as that section says.
  kueue.reads_on_demand = {{"kubeflow.org", "PyTorchJob"}, {"jobset.x-k8s.io", "JobSet"}, {"", "Pod"}};
  served.add({{"kubeflow.org", "PyTorchJob"}, "pytorchjobs", true, {"v1"}});
  auto with_jobs = plan_watches({core, kueue}, served);
  REQUIRE(with_jobs.size() == 4);
  CHECK(with_jobs[0].name() == "pods");
  CHECK_FALSE(with_jobs[0].demand_only);
  const watch_spec& pytorch = with_jobs[3];
  CHECK(pytorch.name() == "pytorchjobs.kubeflow.org");
  CHECK(pytorch.version == "v1");
  CHECK(pytorch.demand_only);
  CHECK(pytorch.demand_categories.empty());
  CHECK(pytorch.cap == 0);
}

TEST_CASE("list and watch requests carry the reflector's parameters", "[kube][discovery]") {
  resource_target nodes{{"", "Node"}, "v1", "nodes", "nvidia.com/gpu.present=true", ""};
  CHECK(nodes.collection_path() == "/api/v1/nodes");
  resource_target workloads{{"kueue.x-k8s.io", "Workload"}, "v1beta2", "workloads", "", ""};
  CHECK(workloads.collection_path() == "/apis/kueue.x-k8s.io/v1beta2/workloads");
  CHECK(workloads.api_version() == "kueue.x-k8s.io/v1beta2");

  CHECK(list_target(workloads, {"0", "", 500}) == "/apis/kueue.x-k8s.io/v1beta2/workloads?limit=500&resourceVersion=0");
  // A continued page carries its version in the token: the server refuses both.
  CHECK(list_target(workloads, {"0", "eyJ2Ijo=", 500}) ==
        "/apis/kueue.x-k8s.io/v1beta2/workloads?limit=500&continue=eyJ2Ijo%3D");
  CHECK(list_target(nodes, {"", "", 0}) == "/api/v1/nodes?labelSelector=nvidia.com%2Fgpu.present%3Dtrue");

  watch_request watch;
  watch.resource_version = "1234";
  watch.timeout = std::chrono::seconds(417);
  CHECK(watch_target(workloads, watch) ==
        "/apis/kueue.x-k8s.io/v1beta2/"
        "workloads?watch=1&allowWatchBookmarks=true&timeoutSeconds=417&resourceVersion=1234");
  watch_request streaming;
  streaming.send_initial_events = true;
  streaming.timeout = std::chrono::seconds(300);
  CHECK(watch_target(nodes, streaming) ==
        "/api/v1/nodes?watch=1&allowWatchBookmarks=true&timeoutSeconds=300&sendInitialEvents=true"
        "&resourceVersionMatch=NotOlderThan&labelSelector=nvidia.com%2Fgpu.present%3Dtrue");
}

TEST_CASE("versions sort as Kubernetes prioritises them", "[kube][discovery]") {
  // The example of the CRD versioning documentation.
  std::vector<std::string> versions{"foo10",    "v11alpha2", "v1",        "v3beta1", "v2",
                                    "v10beta3", "v11beta2",  "v12alpha1", "foo1",    "v10"};
  sort_by_version_priority(versions);
  CHECK(versions == std::vector<std::string>{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1",
                                             "v11alpha2", "foo1", "foo10"});
  std::vector<std::string> kueue{"v1beta1", "v1beta2"};
  sort_by_version_priority(kueue);
  CHECK(kueue.front() == "v1beta2");
  std::vector<std::string> dra{"v1alpha3", "v1beta1", "v1", "v1beta2"};
  sort_by_version_priority(dra);
  CHECK(dra == std::vector<std::string>{"v1", "v1beta2", "v1beta1", "v1alpha3"});
}

TEST_CASE("a kind of another group that a section shows is watched only where the section's own kinds are served",
          "[discovery]") {
  section gpu;
  gpu.id = "gpu-operator";
  gpu.group = "nvidia.com";
  gpu.resources.push_back(resource("clusterpolicies", {"nvidia.com", "ClusterPolicy"}));
  gpu.resources.push_back(resource("daemonsets", {"apps", "DaemonSet"}));

  served_kinds served;
  served.add({{"apps", "DaemonSet"}, "daemonsets", true, {"v1"}});
  // Every cluster serves DaemonSets; without the operator's kinds they are none of its business.
  CHECK(plan_watches({gpu}, served).empty());

  served.add({{"nvidia.com", "ClusterPolicy"}, "clusterpolicies", false, {"v1"}});
  auto plan = plan_watches({gpu}, served);
  REQUIRE(plan.size() == 2);
  CHECK(plan[0].name() == "clusterpolicies.nvidia.com");
  CHECK(plan[1].name() == "daemonsets.apps");
}

TEST_CASE("a discovery that finds what was served already is told apart from one that changed it",
          "[kube][discovery]") {
  discovery_document document;
  parse_aggregated_discovery(json::parse(aggregated_api), document);
  parse_aggregated_discovery(json::parse(aggregated_apis), document);
  served_kinds served;
  apply_discovery(document, served);
  // The next minute's discovery, read into a copy as the live source does: nothing new, so what
  // every cached view was rendered against need not change.
  served_kinds again = served;
  apply_discovery(document, again);
  CHECK(again.same_as(served));
  CHECK(again.generation() > served.generation());  // replacing it would have dropped every view
  // A version more, a kind fewer, or a group that stops answering: changed.
  served_kinds more = served;
  more.add(served_kind{{"kueue.x-k8s.io", "Workload"}, "workloads", true, {"v1"}});
  CHECK_FALSE(more.same_as(served));
  served_kinds fewer = served;
  fewer.remove({"batch", "Job"});
  CHECK_FALSE(fewer.same_as(served));
  served_kinds stale = served;
  stale.set_unanswered({"kueue.x-k8s.io"});
  CHECK_FALSE(stale.same_as(served));
}
