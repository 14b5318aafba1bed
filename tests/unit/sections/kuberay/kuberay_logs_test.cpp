// The logs routes' plans, from the cache: a Ray Cluster's head log, its workers' merged log
// (capped at 20, the rest named), a Ray Job's submitter pods in each submission mode, and the
// errors: an unknown role, a missing object, no pods (404 when the pod list is whole, 503 when
// it may lack them), bad parameters.
#include <algorithm>

#include <catch2/catch.hpp>

#include "sections/kuberay/kuberay_section.hpp"
#include "support/section_views.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

std::string objects() {
  std::string yaml = R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: big, namespace: ml, uid: uid-big}
spec: {workerGroupSpecs: [{groupName: gpu, replicas: 23}]}
---
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: headless, namespace: ml, uid: uid-headless}
spec: {}
---
apiVersion: v1
kind: Pod
metadata:
  name: big-head-x
  namespace: ml
  labels: {ray.io/cluster: big, ray.io/node-type: head}
spec: {containers: [{name: ray-head}, {name: autoscaler}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: big-head-other-ns
  namespace: other
  labels: {ray.io/cluster: big, ray.io/node-type: head}
spec: {containers: [{name: ray-head}]}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: train, namespace: ml, uid: uid-train}
spec: {entrypoint: python train.py}
status: {jobDeploymentStatus: Running, rayClusterName: train-abcde}
---
apiVersion: v1
kind: Pod
metadata:
  name: train-zzzzz
  namespace: ml
  labels: {batch.kubernetes.io/job-name: train}
spec: {containers: [{name: ray-job-submitter}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: train-aaaaa
  namespace: ml
  labels: {batch.kubernetes.io/job-name: train}
spec: {containers: [{name: ray-job-submitter}]}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: over-http, namespace: ml, uid: uid-http}
spec: {entrypoint: python x.py, submissionMode: HTTPMode}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: sidecar, namespace: ml, uid: uid-side}
spec: {entrypoint: python x.py, submissionMode: SidecarMode}
status: {jobDeploymentStatus: Running, rayClusterName: sidecar-abcde}
---
apiVersion: v1
kind: Pod
metadata:
  name: sidecar-abcde-head
  namespace: ml
  labels: {ray.io/cluster: sidecar-abcde, ray.io/node-type: head}
spec: {containers: [{name: ray-head}, {name: ray-job-submitter}]}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: lonely, namespace: ml, uid: uid-lonely}
spec: {entrypoint: python x.py}
)";
  for (int i = 0; i < 23; ++i) {
    char name[40];
    std::snprintf(name, sizeof name, "big-gpu-worker-%02d", i);
    yaml += "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + std::string(name) +
            "\n  namespace: ml\n  labels: {ray.io/cluster: big, ray.io/node-type: worker}\n"
            "spec: {containers: [{name: ray-worker}]}\n";
  }
  return yaml;
}

fixture_cluster logs_cluster(bool complete = true) {
  fixture_cluster cluster(testing::at("2026-11-29T12:00:00Z"));
  cluster.load_yaml(objects());
  if (complete) {
    testing::mark_complete(cluster);
  }
  return cluster;
}

stream_answer cluster_logs(const fixture_cluster& cluster, const std::string& name,
                           std::map<std::string, std::string> query) {
  return kuberay::cluster_logs(stream_request{"ml", name, std::move(query)}, cluster.context());
}

stream_answer job_logs(const fixture_cluster& cluster, const std::string& name,
                       std::map<std::string, std::string> query) {
  return kuberay::job_logs(stream_request{"ml", name, std::move(query)}, cluster.context());
}

}  // namespace

TEST_CASE("head logs: the head pod's Ray container, shown as it is", "[kuberay][logs]") {
  fixture_cluster cluster = logs_cluster();
  stream_answer answer = cluster_logs(cluster, "big", {{"role", "head"}, {"follow", "true"}, {"tailLines", "5"}});
  REQUIRE(answer.status == 200);
  REQUIRE(answer.logs.sources.size() == 1);
  const pod_log_source& head = answer.logs.sources[0];
  CHECK(head.pod == "big-head-x");
  CHECK(head.namespace_ == "ml");
  CHECK(head.container == "ray-head");
  CHECK(head.prefix.empty());
  CHECK(answer.logs.follow);
  CHECK(answer.logs.tail_lines == 5);
}

TEST_CASE("worker logs: the first 20 workers by name, merged with prefixes, the other 3 named", "[kuberay][logs]") {
  fixture_cluster cluster = logs_cluster();
  stream_answer answer = cluster_logs(cluster, "big", {{"role", "workers"}});
  REQUIRE(answer.status == 200);
  REQUIRE(answer.logs.sources.size() == 20);
  CHECK(answer.logs.sources.front().pod == "big-gpu-worker-00");
  CHECK(answer.logs.sources.back().pod == "big-gpu-worker-19");
  CHECK(answer.logs.sources.front().prefix == "[pod/big-gpu-worker-00] ");
  CHECK(answer.logs.sources.front().container == "ray-worker");
  REQUIRE(answer.logs.notices.size() == 1);
  CHECK(answer.logs.notices[0].find("left out (3): big-gpu-worker-20, big-gpu-worker-21, big-gpu-worker-22") !=
        std::string::npos);
  for (const pod_log_source& source : answer.logs.sources) {
    CHECK(source.pod.find("head") == std::string::npos);
  }
}

TEST_CASE("submitter logs: the submitter Job's pods, the head pod's sidecar, none over HTTP", "[kuberay][logs]") {
  fixture_cluster cluster = logs_cluster();
  stream_answer k8s = job_logs(cluster, "train", {{"role", "submitter"}});
  REQUIRE(k8s.status == 200);
  REQUIRE(k8s.logs.sources.size() == 2);
  CHECK(k8s.logs.sources[0].pod == "train-aaaaa");
  CHECK(k8s.logs.sources[1].pod == "train-zzzzz");
  CHECK(k8s.logs.sources[0].container == "ray-job-submitter");
  CHECK(k8s.logs.sources[0].prefix == "[pod/train-aaaaa] ");

  stream_answer sidecar = job_logs(cluster, "sidecar", {{"role", "submitter"}});
  REQUIRE(sidecar.status == 200);
  REQUIRE(sidecar.logs.sources.size() == 1);
  CHECK(sidecar.logs.sources[0].pod == "sidecar-abcde-head");
  CHECK(sidecar.logs.sources[0].container == "ray-job-submitter");

  stream_answer http = job_logs(cluster, "over-http", {{"role", "submitter"}});
  CHECK(http.status == 404);
  CHECK(http.message.find("HTTPMode") != std::string::npos);

  stream_answer lonely = job_logs(cluster, "lonely", {{"role", "submitter"}});
  CHECK(lonely.status == 404);
  CHECK(lonely.message == "no submitter pod of Ray Job ml/lonely exists.");
}

TEST_CASE("logs errors: the role, the object, the pods, the parameters", "[kuberay][logs]") {
  fixture_cluster cluster = logs_cluster();
  CHECK(cluster_logs(cluster, "big", {}).status == 400);
  CHECK(cluster_logs(cluster, "big", {{"role", "submitter"}}).status == 400);
  CHECK(job_logs(cluster, "train", {{"role", "head"}}).status == 400);
  CHECK(cluster_logs(cluster, "big", {{"role", "head"}, {"tailLines", "-3"}}).status == 400);
  stream_answer missing = cluster_logs(cluster, "nope", {{"role", "head"}});
  CHECK(missing.status == 404);
  CHECK(missing.reason == "NotFound");
  CHECK(missing.message == "RayCluster ml/nope is not in the cache");
  CHECK(job_logs(cluster, "nope", {{"role", "submitter"}}).status == 404);
  stream_answer no_head = cluster_logs(cluster, "headless", {{"role", "head"}});
  CHECK(no_head.status == 404);
  CHECK(no_head.message == "no head pod of Ray Cluster ml/headless exists.");
  CHECK(cluster_logs(cluster, "headless", {{"role", "workers"}}).status == 404);

  // Pods not read yet: no pod in the cache does not mean there is none.
  fixture_cluster unsynced = logs_cluster(false);
  stream_answer cannot_tell = cluster_logs(unsynced, "headless", {{"role", "head"}});
  CHECK(cannot_tell.status == 503);
  CHECK(cannot_tell.reason == "Unavailable");
}

TEST_CASE("the section declares both logs routes, their parameters and the pods/log read", "[kuberay][logs]") {
  section s = kuberay::make_section();
  REQUIRE(s.streams.size() == 2);
  for (const streaming_route& stream : s.streams) {
    CHECK(stream.segment == "logs");
    CHECK(stream.reads.resource == "pods/log");
    CHECK(stream.reads.verb == "get");
    CHECK(std::find(stream.parameters.begin(), stream.parameters.end(), "role") != stream.parameters.end());
    CHECK(std::find(stream.parameters.begin(), stream.parameters.end(), "tailLines") != stream.parameters.end());
  }
  CHECK(s.streams[0].resource == "rayclusters");
  CHECK(s.streams[1].resource == "rayjobs");
}
