// Keeping a real cluster's objects: thousands synced across kinds, every change seen within a
// second, status written through /status seen, the cache equal to the server's lists.
#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "sections/registry.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const kind_key pod_type{"", "Pod"};
const kind_key node_type{"", "Node"};
const kind_key job_type{"batch", "Job"};
const kind_key flavor_type{"kueue.x-k8s.io", "ResourceFlavor"};
const kind_key device_class_type{"resource.k8s.io", "DeviceClass"};

json resource_flavor(const std::string& name) {
  return json{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
              {"kind", "ResourceFlavor"},
              {"metadata", {{"name", name}}},
              {"spec", {{"nodeLabels", {{"cloud.example.com/accelerator", name}}}}}};
}

json device_class(const std::string& name) {
  return json{{"apiVersion", "resource.k8s.io/v1"},
              {"kind", "DeviceClass"},
              {"metadata", {{"name", name}}},
              {"spec", json::object()}};
}

// How long until `done()` holds, running the loop; fails the test past a second.
std::chrono::milliseconds time_until(live_harness& live, const std::function<bool()>& done) {
  auto start = std::chrono::steady_clock::now();
  bool held = live.run_until(done, std::chrono::seconds(5));
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  CHECK(held);
  CHECK(took < std::chrono::milliseconds(1000));
  return took;
}

}  // namespace

TEST_CASE("thousands of objects across kinds sync, and every change is seen within a second", "[integration][sync]") {
  test_cluster cluster({{upstream_crds("kueue").string()}});
  admin_client admin = cluster.admin();
  const int namespaces = 4;
  for (int n = 0; n < namespaces; ++n) {
    REQUIRE(admin.post("/api/v1/namespaces", namespace_object("team-" + std::to_string(n))).ok());
  }
  std::vector<std::pair<std::string, json>> objects;
  for (int i = 0; i < 1600; ++i) {
    std::string ns = "team-" + std::to_string(i % namespaces);
    objects.emplace_back("/api/v1/namespaces/" + ns + "/pods",
                         pod_object(ns, "pod-" + std::to_string(i), {{"batch", std::to_string(i % 7)}}));
  }
  for (int i = 0; i < 300; ++i) {
    objects.emplace_back("/api/v1/nodes", node_object("node-" + std::to_string(i)));
    std::string ns = "team-" + std::to_string(i % namespaces);
    objects.emplace_back("/apis/batch/v1/namespaces/" + ns + "/jobs", job_object(ns, "job-" + std::to_string(i)));
  }
  for (int i = 0; i < 200; ++i) {
    objects.emplace_back("/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
                         resource_flavor("flavor-" + std::to_string(i)));
  }
  for (int i = 0; i < 100; ++i) {
    objects.emplace_back("/apis/resource.k8s.io/v1/deviceclasses", device_class("class-" + std::to_string(i)));
  }
  std::vector<std::string> errors = create_all(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), objects);
  REQUIRE(errors.empty());

  auto start = std::chrono::steady_clock::now();
  live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), all_sections());
  REQUIRE(live.run_until([&] { return live.ready(); }, std::chrono::seconds(60)));
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  WARN("synced " << objects.size() << " objects in " << took.count() << " ms");

  CHECK(live.cached(pod_type) == listed(admin, "/api/v1/pods"));
  CHECK(live.cached(node_type) == listed(admin, "/api/v1/nodes"));
  CHECK(live.cached(job_type) == listed(admin, "/apis/batch/v1/jobs"));
  CHECK(live.cached(flavor_type) == listed(admin, "/apis/kueue.x-k8s.io/v1beta2/resourceflavors"));
  CHECK(live.cached(device_class_type) == listed(admin, "/apis/resource.k8s.io/v1/deviceclasses"));
  CHECK(live.store.count(pod_type) == 1600);
  CHECK(live.store.count(flavor_type) == 200);
  for (const kind_key& type : {pod_type, node_type, job_type, flavor_type, device_class_type}) {
    CHECK(live.store.completeness(type).complete());
  }
  // The cached bodies are the objects, decoded as the kind's profile keeps them.
  object_ptr flavor = live.store.get(flavor_type, "", "flavor-7");
  REQUIRE(flavor);
  CHECK(flavor->api_version == "kueue.x-k8s.io/v1beta2");
  CHECK(string_or(flavor->body(), {"spec", "nodeLabels", "cloud.example.com/accelerator"}) == "flavor-7");
  CHECK_FALSE(flavor->body()["metadata"].contains("managedFields"));

  {
    INFO("create, update, delete and status writes are seen within a second");
    answer created = admin.post("/api/v1/namespaces/team-1/pods", pod_object("team-1", "fresh"));
    REQUIRE(created.ok());
    time_until(live, [&] { return live.store.get(pod_type, "team-1", "fresh") != nullptr; });

    json pod = created.body();
    pod["metadata"]["labels"]["stage"] = "two";
    answer updated = admin.put("/api/v1/namespaces/team-1/pods/fresh", pod);
    REQUIRE(updated.ok());
    const std::string version = string_or(updated.body(), {"metadata", "resourceVersion"});
    time_until(live, [&] {
      object_ptr cached = live.store.get(pod_type, "team-1", "fresh");
      return cached && cached->resource_version == version;
    });
    CHECK(string_or(live.store.get(pod_type, "team-1", "fresh")->body(), {"metadata", "labels", "stage"}) == "two");

    // No kubelet runs here: status is written through the subresource, as a kubelet would.
    json with_status = updated.body();
    with_status["status"] = {
        {"phase", "Running"},
        {"conditions",
         json::array({{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", "2026-11-29T10:00:00Z"}}})}};
    answer status = admin.put("/api/v1/namespaces/team-1/pods/fresh/status", with_status);
    REQUIRE(status.ok());
    time_until(live, [&] {
      object_ptr cached = live.store.get(pod_type, "team-1", "fresh");
      return cached && string_or(cached->body(), {"status", "phase"}) == "Running";
    });

    REQUIRE(admin.remove("/api/v1/namespaces/team-1/pods/fresh").ok());
    time_until(live, [&] { return live.store.get(pod_type, "team-1", "fresh") == nullptr; });

    REQUIRE(admin.post("/apis/kueue.x-k8s.io/v1beta2/resourceflavors", resource_flavor("late")).ok());
    time_until(live, [&] { return live.store.get(flavor_type, "", "late") != nullptr; });
    REQUIRE(admin.remove("/apis/kueue.x-k8s.io/v1beta2/resourceflavors/late").ok());
    time_until(live, [&] { return live.store.get(flavor_type, "", "late") == nullptr; });

    REQUIRE(admin.remove("/api/v1/nodes/node-3").ok());
    time_until(live, [&] { return live.store.get(node_type, "", "node-3") == nullptr; });
  }
}
