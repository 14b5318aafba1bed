#include "api/api_router.hpp"

#include <catch2/catch.hpp>

#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"
#include "support/scripted_cluster.hpp"

using namespace sextant;

namespace {

struct router_fixture {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections_for_test(), clock};
  api_router router{state};

  static std::vector<section> all_sections_for_test();

  router_fixture() {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("cluster.yaml", R"(
apiVersion: v1
kind: Node
metadata: {name: gpu-1, uid: n1, creationTimestamp: "2026-11-01T00:00:00Z"}
status: {conditions: [{type: Ready, status: "True", reason: KubeletReady}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ml, uid: p1}
spec: {nodeName: gpu-1, containers: [{name: c}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: p2, namespace: other, uid: p2}
status: {phase: Pending}
)",
                     false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }

  api_response get(const std::string& target, const std::string& if_none_match = {}) {
    return router.handle({"GET", target, if_none_match, ""});
  }
  static json body(const api_response& response) { return json::parse(response.body); }
  static std::string reason(const api_response& response) { return body(response)["error"]["reason"]; }
};

}  // namespace

#include "sections/registry.hpp"
std::vector<section> router_fixture::all_sections_for_test() {
  return all_sections();
}

TEST_CASE("health, readiness and metrics answer", "[router]") {
  router_fixture f;
  CHECK(f.get("/healthz").status == 200);
  CHECK(f.get("/healthz").body == "ok\n");
  CHECK(f.get("/readyz").status == 200);
  // A forbidden kind is synced as far as it can be: ready, but named.
  testing::scripted_cluster& cluster = testing::scripted_cluster::install(f.state);
  cluster.forbidden_names = {"resourceclaims.resource.k8s.io"};
  auto forbidden = f.get("/readyz");
  CHECK(forbidden.status == 200);
  CHECK(forbidden.body == "ok\nforbidden, so not read: resourceclaims.resource.k8s.io\n");
  cluster.unsynced_names = {"pods", "nodes"};
  auto not_ready = f.get("/readyz");
  CHECK(not_ready.status == 503);
  CHECK(router_fixture::reason(not_ready) == "Unavailable");
  CHECK_THAT(router_fixture::body(not_ready)["error"]["message"].get<std::string>(), Catch::Contains("pods, nodes"));
  auto metrics = f.get("/metrics");
  CHECK(metrics.status == 200);
  CHECK_THAT(metrics.content_type, Catch::StartsWith("text/plain; version=0.0.4"));
  CHECK_THAT(metrics.body, Catch::Contains("sextant_http_requests_total{code=\"200\",route=\"/healthz\"}") ||
                               Catch::Contains("sextant_http_requests_total{route=\"/healthz\",code=\"200\"}"));
}

TEST_CASE("the CA of a self-signed certificate is served to anyone, and 404 without one", "[router][tls]") {
  router_fixture f;
  auto none = f.get("/.well-known/sextant/ca.crt");
  CHECK(none.status == 404);
  CHECK_THAT(router_fixture::body(none)["error"]["message"].get<std::string>(), Catch::Contains("--tls=self-signed"));
  f.state.tls_ca_pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  auto ca = f.get("/.well-known/sextant/ca.crt");
  CHECK(ca.status == 200);
  CHECK(ca.content_type == "application/x-pem-file");
  CHECK(ca.body == f.state.tls_ca_pem);
  CHECK(f.get("/.well-known/sextant/ca.crt?x=1").status == 400);
}

TEST_CASE("sections lists core always, and what the cluster serves", "[router]") {
  router_fixture f;
  auto response = f.get("/api/v1/sections");
  REQUIRE(response.status == 200);
  json sections = router_fixture::body(response)["sections"];
  REQUIRE(!sections.empty());
  CHECK(sections[0]["id"] == "core");
  for (const json& s : sections) {
    CHECK(s["id"] != "kueue");  // nothing of Kueue in this cluster
  }
  CHECK(sections[0]["resources"][0]["id"] == "pods");
  CHECK(sections[0]["resources"][0]["served"] == true);
}

TEST_CASE("lists and details have the summary shape of api.md", "[router]") {
  router_fixture f;
  auto list = router_fixture::body(f.get("/api/v1/core/pods"));
  CHECK(list["items"].size() == 2);
  CHECK(list["incomplete"] == false);
  CHECK(list["incompleteReason"].is_null());
  auto narrowed = router_fixture::body(f.get("/api/v1/core/pods?namespace=ml"));
  REQUIRE(narrowed["items"].size() == 1);
  const json& item = narrowed["items"][0];
  CHECK(item["apiVersion"] == "v1");
  CHECK(item["kind"] == "Pod");
  CHECK(item["namespace"] == "ml");
  CHECK(item["name"] == "p1");
  CHECK(item["uid"] == "p1");
  CHECK(item["state"]["label"] == "Running");
  CHECK(item["path"] == "/api/v1/core/pods/ml/p1");

  auto details = router_fixture::body(f.get("/api/v1/core/pods/ml/p1"));
  CHECK(details["name"] == "p1");
  CHECK(details["links"].is_array());
  CHECK(details["links"][0]["rel"] == "node");
  CHECK(details["links"][0]["path"] == "/api/v1/core/nodes/gpu-1");
  CHECK(details["notes"].is_array());
  CHECK(details["problems"].is_array());

  auto node = router_fixture::body(f.get("/api/v1/core/nodes/gpu-1"));
  CHECK(node["namespace"].is_null());
  CHECK(node["created"] == "2026-11-01T00:00:00Z");
  CHECK(node["state"]["label"] == "Ready");
}

TEST_CASE("every error path answers with the envelope", "[router]") {
  router_fixture f;
  auto expect = [&](const std::string& method, const std::string& target, int status, const std::string& reason) {
    auto response = f.router.handle({method, target, "", ""});
    INFO(method << " " << target);
    CHECK(response.status == status);
    CHECK(response.content_type == "application/json");
    CHECK(router_fixture::reason(response) == reason);
    CHECK(router_fixture::body(response)["error"]["code"] == status);
    return response;
  };
  expect("GET", "/nope", 404, "NotFound");
  expect("GET", "/api/v2/sections", 404, "NotFound");
  expect("GET", "/api/v1/nosuch/things", 404, "NotFound");
  expect("GET", "/api/v1/core/things", 404, "NotFound");
  expect("GET", "/api/v1/core/pods/ml/missing", 404, "NotFound");
  expect("GET", "/api/v1/core/pods/p1", 400, "BadRequest");    // namespaced needs ns/name
  expect("GET", "/api/v1/core/nodes/a/b", 400, "BadRequest");  // cluster-scoped takes a name
  expect("GET", "/api/v1/core/pods?namespace=Not_Valid", 400, "BadRequest");
  expect("GET", "/api/v1/core/nodes?namespace=ml", 400, "BadRequest");
  expect("GET", "/api/v1/core/pods?color=blue", 400, "BadRequest");
  expect("GET", "/api/v1/problems?category=nope", 400, "BadRequest");
  expect("GET", "/api/v1/core/pods/%zz/x", 400, "BadRequest");
  expect("GET", "/api/v1/kueue/clusterqueues", 404, "NotServed");
  expect("GET", "/api/v1/dra/resourceclaims", 404, "NotServed");
  auto post = expect("POST", "/api/v1/core/pods", 405, "MethodNotAllowed");
  CHECK(post.headers.at(0) == std::pair<std::string, std::string>{"Allow", "GET, HEAD"});
  auto del = expect("DELETE", "/api/v1/settings/problems", 405, "MethodNotAllowed");
  CHECK(del.headers.at(0).second == "GET, HEAD, PUT");
  expect("PUT", "/healthz", 405, "MethodNotAllowed");
  expect("PUT", "/api/v1/settings/problems", 400, "BadRequest");  // empty body
  auto overflow = f.router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": 1e999999})"});
  CHECK(overflow.status == 400);
  // A target that is not UTF-8 is echoed in the message, with the bad bytes replaced; it used
  // to throw while the answer was written (found by fuzz_http_target).
  expect("GET", "/a\xf0\x91\x9e?t&ra\xde\xc5", 404, "NotFound");
  expect("GET", "/api/v1/core/pods/ml/\xc5\x26", 404, "NotFound");
}

TEST_CASE("ETags and If-None-Match", "[router]") {
  router_fixture f;
  auto first = f.get("/api/v1/core/pods");
  REQUIRE(first.status == 200);
  std::string etag;
  for (const auto& [name, value] : first.headers) {
    if (name == "ETag") {
      etag = value;
    }
  }
  REQUIRE(etag.size() == 18);
  CHECK(etag.front() == '"');
  CHECK(f.get("/api/v1/core/pods", etag).status == 304);
  CHECK(f.get("/api/v1/core/pods", etag).body.empty());
  CHECK(f.get("/api/v1/core/pods", "W/" + etag).status == 304);
  CHECK(f.get("/api/v1/core/pods", "\"other\", " + etag).status == 304);
  CHECK(f.get("/api/v1/core/pods", "*").status == 304);
  CHECK(f.get("/api/v1/core/pods", "\"other\"").status == 200);
  // A change to the data changes the tag.
  snapshot_loader loader(f.state.store, f.state.served, f.state.profiles, f.clock.now());
  snapshot_report report;
  loader.load_text("more.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p3, namespace: ml}\n", false, report);
  CHECK(f.get("/api/v1/core/pods", etag).status == 200);
}

TEST_CASE("problem settings: read, change, validate", "[router][settings]") {
  router_fixture f;
  auto settings = router_fixture::body(f.get("/api/v1/settings/problems"));
  CHECK(settings["categories"].is_object());
  auto problems = router_fixture::body(f.get("/api/v1/problems"));
  CHECK(problems["problems"].is_array());
  for (const json& category : problems["categories"]) {
    CHECK(category["agentVisible"] == false);
    if (category["id"] == "kueue-workloads") {
      CHECK(category["enabled"] == false);
    }
  }
  auto bad =
      f.router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": {"nope": {"enabled": true}}})"});
  CHECK(bad.status == 400);
  auto wrong_type =
      f.router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": {"dra": {"enabled": "yes"}}})"});
  if (f.state.problems.has_category("dra")) {
    CHECK(wrong_type.status == 400);
    bool before = f.state.problems.enabled("dra");
    auto ok =
        f.router.handle({"PUT", "/api/v1/settings/problems", "", R"({"categories": {"dra": {"enabled": false}}})"});
    CHECK(ok.status == 200);
    CHECK(router_fixture::body(ok)["categories"]["dra"]["enabled"] == false);
    CHECK_FALSE(f.state.problems.enabled("dra"));
    (void)before;
  }
}

TEST_CASE("details and routes ask for the kinds watched on demand that they read", "[router]") {
  router_fixture f;
  std::vector<std::string> asked;
  testing::scripted_cluster::install(f.state).on_demand = [&asked](const kind_key& type) {
    asked.push_back(type.to_string());
  };
  snapshot_loader loader(f.state.store, f.state.served, f.state.profiles, f.clock.now());
  snapshot_report report;
  // Kueue as installed: it serves Workloads (one, of another job, makes the snapshot say so), so
  // that the views read them, and reading them asks for them.
  loader.load_text("job.yaml", R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml, uid: j1}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: job-other, namespace: elsewhere, uid: w9}
spec: {queueName: other-queue}
)",
                   false, report);
  REQUIRE(report.errors.empty());
  f.get("/api/v1/core/jobs/ml/train");
  CHECK(std::count(asked.begin(), asked.end(), "Workload.kueue.x-k8s.io") == 1);  // the Queue block
  f.get("/api/v1/kueue/clusterqueues/cq");
  CHECK(std::count(asked.begin(), asked.end(), "Workload.kueue.x-k8s.io") == 2);  // the waiting list
  f.get("/api/v1/kueue/queue/jobs/ml/train");
  CHECK(std::count(asked.begin(), asked.end(), "Workload.kueue.x-k8s.io") == 3);  // the Queue route
  asked.clear();
  f.get("/api/v1/core/nodes/gpu-1");
  CHECK(asked.empty());
}

TEST_CASE("the problem list says which categories have judged every object they need", "[router][problems]") {
  router_fixture f;
  // Not evaluated yet: an empty list is not "no problems".
  json fresh = router_fixture::body(f.get("/api/v1/problems"));
  CHECK(fresh["problems"].empty());
  CHECK(fresh["incomplete"] == true);
  CHECK_THAT(fresh["incompleteReason"].get<std::string>(), Catch::Contains("kueue-queues (not evaluated yet)"));
  f.state.evaluate_problems();
  json judged = router_fixture::body(f.get("/api/v1/problems"));
  CHECK(judged["incomplete"] == false);
  CHECK(judged["incompleteReason"].is_null());
  for (const json& category : judged["categories"]) {
    INFO(category.dump());
    CHECK(category["evaluated"] == category["enabled"]);
    CHECK(category["waitingFor"].empty());
  }
  // Turned on, with Workloads not read yet (live mode): not judged, and the kinds it waits for named.
  f.state.store.set_completeness({"kueue.x-k8s.io", "Workload"}, {list_completeness::state::not_synced, "not watched"});
  api_request put{"PUT", "/api/v1/settings/problems", "", R"({"categories": {"kueue-workloads": {"enabled": true}}})"};
  REQUIRE(f.router.handle(put).status == 200);
  f.state.evaluate_problems();
  json waiting = router_fixture::body(f.get("/api/v1/problems"));
  CHECK(waiting["incomplete"] == true);
  CHECK(waiting["incompleteReason"] == "Not judged yet: kueue-workloads (Workload.kueue.x-k8s.io: not watched).");
  for (const json& category : waiting["categories"]) {
    if (category["id"] == "kueue-workloads") {
      CHECK(category["evaluated"] == false);
      CHECK(category["waitingFor"] == json::array({"Workload.kueue.x-k8s.io"}));
    }
  }
  // ?category= narrows the verdict too.
  CHECK(router_fixture::body(f.get("/api/v1/problems?category=kueue-queues"))["incomplete"] == false);
  f.state.store.set_completeness({"kueue.x-k8s.io", "Workload"}, {list_completeness::state::complete, ""});
  f.state.evaluate_problems();
  CHECK(router_fixture::body(f.get("/api/v1/problems"))["incomplete"] == false);
}

TEST_CASE("a snapshot kind of a served group with no object and no List is not read", "[router][snapshot]") {
  const char* slice = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpu}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
)";
  auto devices_of = [&slice](const std::string& extra) {
    fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
    daemon_state state{router_fixture::all_sections_for_test(), clock};
    api_router router{state};
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("slices.yaml", std::string(slice) + extra, false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists(report.kinds_listed);
    return json::parse(router.handle({"GET", "/api/v1/dra/devices", "", ""}).body);
  };
  json unread = devices_of("");
  REQUIRE(unread["items"].size() == 1);
  CHECK(unread["items"][0]["allocatedTo"] == "cannot tell");
  // An empty ResourceClaimList is a read list of no claims: the device is free.
  json read = devices_of("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimList\nitems: []\n");
  REQUIRE(read["items"].size() == 1);
  CHECK(read["items"][0]["allocatedTo"].is_null());
}
