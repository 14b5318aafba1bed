// The readers every section shares: quantities, pod template requests, percent-decoding, files,
// and the pod claim reading that the claims block, the waiting reasons and the problem render.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "sections/common/pod_requests.hpp"
#include "sections/dra/dra_section.hpp"
#include "support/fixtures.hpp"
#include "unit/sections/dra/dra_test_support.hpp"
#include "util/file.hpp"
#include "util/percent_encoding.hpp"
#include "util/quantity.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

TEST_CASE("quantity_text: strings as written, numbers as the API server writes them", "[toolkit][quantity]") {
  CHECK(quantity_text(pack(json("80Gi")).root()) == "80Gi");
  CHECK(quantity_text(pack(json(8)).root()) == "8");
  CHECK(quantity_text(pack(json(1.5)).root()) == "1500m");
  CHECK(quantity_text(pack(json::object()).root()).empty());
  CHECK(quantity_text(json("300m")) == "300m");
}

TEST_CASE("a DRA capacity given as a number reads as a quantity", "[toolkit][quantity]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: slice}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    capacity: {memory: {value: 80Gi}, cores: {value: 8}, share: {value: 0.5}}
)");
  dra_test::mark_complete(cluster);
  computed_list devices = dra::list_devices(cluster.context());
  REQUIRE(devices.items.size() == 1);
  CHECK(devices.items[0]["capacity"] == json{{"memory", "80Gi"}, {"cores", "8"}, {"share", "500m"}});
}

TEST_CASE("pod_requests sums a pod template as Kueue reads it", "[toolkit][pod-requests]") {
  json spec = json::parse(R"({
    "containers": [{"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                   {"name": "b", "resources": {"limits": {"cpu": "1", "nvidia.com/gpu": 2}}}],
    "initContainers": [{"name": "init", "resources": {"requests": {"cpu": "2"}}}],
    "overhead": {"memory": "512Mi"}})");
  json per_pod = pod_requests(pack(spec).root());
  CHECK(per_pod == json{{"cpu", "2"}, {"memory", "1536Mi"}, {"nvidia.com/gpu", "2"}});
  CHECK(scaled_requests(per_pod, 4) == json{{"cpu", "8"}, {"memory", "6Gi"}, {"nvidia.com/gpu", "8"}});
  CHECK(pod_requests(pack(json::object()).root()) == json::object());
}

TEST_CASE("one percent-decoder: strict for requests, lenient for a URL's user info", "[toolkit][percent]") {
  CHECK(percent_decode("a%2Fb") == "a/b");
  CHECK(percent_decode("a+b", true) == "a b");
  CHECK(percent_decode("a+b") == "a+b");
  CHECK_FALSE(percent_decode("100%").has_value());
  CHECK_FALSE(percent_decode("%zz").has_value());
  CHECK(percent_decode("100%", false, malformed_escape::keep) == "100%");
  CHECK(percent_decode("p%40ss%2", false, malformed_escape::keep) == "p@ss%2");
}

TEST_CASE("read_file says why a file cannot be read", "[toolkit][file]") {
  std::filesystem::path path = std::filesystem::temp_directory_path() / "sextant-read-file-test.txt";
  {
    std::ofstream out(path, std::ios::binary);
    out << "line\n";
  }
  std::string error;
  CHECK(read_file(path, error) == "line\n");
  std::filesystem::remove(path);
  CHECK_FALSE(read_file(path, error).has_value());
  CHECK_THAT(error, Catch::StartsWith("cannot read " + path.string() + ": "));
}

TEST_CASE("a pod claim's problem and its waiting reason are one reading", "[toolkit][dra]") {
  fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: p1, creationTimestamp: "2026-11-29T09:00:00Z"}
spec:
  containers: [{name: main, image: x}]
  resourceClaims:
  - {name: direct, resourceClaimName: nowhere}
  - {name: templated, resourceClaimTemplateName: gpu-template}
status: {phase: Pending}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
)");
  dra_test::mark_complete(cluster);
  json view = dra_test::view_of(cluster, core::pod_kind, "ml", "p");
  std::vector<finding> found = dra::evaluate_pod(*cluster.get("", "Pod", "ml", "p"), cluster.context());
  REQUIRE(found.size() == 1);
  REQUIRE(view["waiting"]["reasons"].size() == 2);
  CHECK(view["waiting"]["reasons"][0]["text"] == "Claim nowhere does not exist.");
  CHECK(view["waiting"]["reasons"][1]["text"] == "Pod claim templated is not created yet from template gpu-template.");
  CHECK(found[0].message ==
        "Pending: claim nowhere does not exist; pod claim templated is not created yet from template gpu-template.");
  // The claims block says the same.
  CHECK(view["claims"][0]["message"] == "Claim nowhere does not exist.");
  CHECK(view["claims"][1]["message"] == "Pod claim templated is not created yet from template gpu-template.");
}
