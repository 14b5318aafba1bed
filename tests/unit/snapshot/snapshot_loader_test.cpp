#include "snapshot/snapshot_loader.hpp"

#include <fstream>

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"
#include "support/upstream_files.hpp"

using namespace sextant;

namespace {

struct text_loader {
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_report report;
  snapshot_loader loader{store, served, profiles, testing::at("2026-11-29T12:00:00Z")};

  void load(const std::string& path, const std::string& text) {
    loader.load_text(path, text, path.ends_with(".json"), report);
  }
};

std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("sextant-loader-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("single objects and multi-document YAML load", "[loader]") {
  text_loader f;
  f.load("a.yaml", R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
---
---
apiVersion: batch/v1
kind: Job
metadata: {name: j1, namespace: ml, resourceVersion: "12"}
spec: {parallelism: 2}
)");
  CHECK(f.report.errors.empty());
  CHECK(f.report.objects_loaded == 2);
  REQUIRE(f.store.get({"", "Node"}, "", "n1"));
  auto job = f.store.get({"batch", "Job"}, "ml", "j1");
  REQUIRE(job);
  CHECK(job->resource_version == "12");
  CHECK(job->body()["spec"]["parallelism"] == 2);  // typed as a number, not a string
  CHECK(f.served.serves({"batch", "Job"}));
}

TEST_CASE("YAML scalars are typed as Kubernetes' reader types them", "[loader]") {
  text_loader f;
  f.load("a.yaml", R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: d}
data: {quoted: "1", plain: 1, float: 1.5, yes: true, nothing: null, quantity: 100m, tilde: ~, hex: 0x1F}
)");
  auto object = f.store.get({"", "ConfigMap"}, "d", "c");
  REQUIRE(object);
  const json& data = object->body()["data"];
  CHECK(data["quoted"] == "1");
  CHECK(data["plain"] == 1);
  CHECK(data["float"] == 1.5);
  CHECK(data["yes"] == true);
  CHECK(data["nothing"].is_null());
  CHECK(data["tilde"].is_null());
  CHECK(data["quantity"] == "100m");
  CHECK(data["hex"] == 31);
}

TEST_CASE("List and typed *List objects load their items", "[loader]") {
  text_loader f;
  f.load("pods.json", R"({"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"9"},
    "items":[{"metadata":{"name":"p1","namespace":"a"}},{"metadata":{"name":"p2","namespace":"a"}}]})");
  f.load("mixed.yaml", R"(
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
- apiVersion: batch/v1
  kind: Job
  metadata: {name: j, namespace: a}
)");
  CHECK(f.report.errors.empty());
  CHECK(f.store.count({"", "Pod"}) == 2);
  CHECK(f.store.get({"", "Pod"}, "a", "p1")->api_version == "v1");
  CHECK(f.store.count({"", "Node"}) == 1);
  CHECK(f.store.count({"batch", "Job"}) == 1);
}

TEST_CASE("kubectl cluster-info dump output: concatenated lists with logs between", "[loader]") {
  text_loader f;
  f.load("dump.json", R"({
    "kind": "NodeList", "apiVersion": "v1", "metadata": {},
    "items": [{"metadata": {"name": "n1"}}]
}
{
    "kind": "PodList", "apiVersion": "v1", "metadata": {},
    "items": [{"metadata": {"name": "p1", "namespace": "kube-system"}}]
}
==== START logs for container c of pod kube-system/p1 ====
some { unbalanced log line
==== END logs for container c of pod kube-system/p1 ====
{
    "kind": "EventList", "apiVersion": "v1", "metadata": {}, "items": []
}
)");
  CHECK(f.report.errors.empty());
  CHECK(f.store.count({"", "Node"}) == 1);
  CHECK(f.store.count({"", "Pod"}) == 1);
}

TEST_CASE("a file that cannot be parsed is reported by path and line and skipped", "[loader]") {
  auto dir = temp_dir("broken");
  write_file(dir / "good.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");
  write_file(dir / "bad.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: [unclosed\n");
  write_file(dir / "bad.json", "{\"apiVersion\": \"v1\",\n \"kind\": \"Node\",\n \"metadata\": {\"name\": \"x\",}}\n");
  write_file(dir / "notes.txt", "ignored: not a snapshot file");
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_loader loader(store, served, profiles, testing::at("2026-11-29T12:00:00Z"));
  snapshot_report report = loader.load(dir);
  CHECK(store.count({"", "Node"}) == 1);
  CHECK(report.files_read == 1);
  CHECK(report.files_skipped == 2);
  REQUIRE(report.errors.size() == 2);
  CHECK(report.errors[0].path == (dir / "bad.json").string());
  CHECK(report.errors[0].line == 3);
  CHECK(report.errors[1].path == (dir / "bad.yaml").string());
  CHECK(report.errors[1].line == 4);  // where yaml-cpp noticed: the flow never closes before the end
  CHECK_THAT(report.summary(), Catch::Contains("loaded 1 object from 1 file") && Catch::Contains("2 files skipped"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("objects without kind or name are reported and the rest loads", "[loader]") {
  text_loader f;
  f.load("x.yaml", R"(
apiVersion: v1
kind: Node
metadata: {}
---
apiVersion: v1
metadata: {name: nameless-kind}
---
- just
- a list
---
apiVersion: v1
kind: Node
metadata: {name: fine}
)");
  CHECK(f.report.objects_loaded == 1);
  REQUIRE(f.report.errors.size() == 3);
  CHECK_THAT(f.report.errors[0].message, Catch::Contains("metadata.name"));
  CHECK(f.report.errors[0].line == 2);
  CHECK_THAT(f.report.errors[1].message, Catch::Contains("kind"));
  CHECK(f.report.errors[1].line == 6);
  CHECK_THAT(f.report.errors[2].message, Catch::Contains("not a Kubernetes object"));
}

TEST_CASE("duplicate objects keep the newer resourceVersion and are reported", "[loader]") {
  text_loader f;
  f.load("a.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1, resourceVersion: \"20\", labels: {from: a}}\n");
  f.load("b.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1, resourceVersion: \"7\", labels: {from: b}}\n");
  f.load("c.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n2, resourceVersion: \"1\"}\n");
  f.load("d.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n2, resourceVersion: \"3\"}\n");
  CHECK(f.report.objects_loaded == 2);
  CHECK(f.store.get({"", "Node"}, "", "n1")->body()["metadata"]["labels"]["from"] == "a");
  CHECK(f.store.get({"", "Node"}, "", "n2")->resource_version == "3");
  REQUIRE(f.report.warnings.size() == 2);
  CHECK_THAT(f.report.warnings[0].message, Catch::Contains("duplicate Node n1") && Catch::Contains("a.yaml"));
  CHECK_THAT(f.report.warnings[1].message, Catch::Contains("duplicate Node n2") && Catch::Contains("c.yaml"));
  // The one kept replaced c.yaml's: a third copy is named against d.yaml, where the kept one is.
  f.load("e.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n2, resourceVersion: \"2\"}\n");
  REQUIRE(f.report.warnings.size() == 3);
  CHECK_THAT(f.report.warnings[2].message,
             Catch::Contains("also in d.yaml") && Catch::Contains("keeping the one there"));
  CHECK(f.store.get({"", "Node"}, "", "n2")->resource_version == "3");
}

TEST_CASE("CRDs make their kinds served; unknown kinds still load", "[loader]") {
  text_loader f;
  f.load("crd.yaml", R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Cluster
  versions: [{name: v2, served: true}, {name: v1, served: false}]
---
apiVersion: other.example.com/v9
kind: Gadget
metadata: {name: g, namespace: x}
)");
  const served_kind* widget = f.served.find({"example.com", "Widget"});
  REQUIRE(widget != nullptr);
  CHECK(widget->plural == "widgets");
  CHECK_FALSE(widget->namespaced);
  CHECK(widget->versions == std::vector<std::string>{"v2"});
  CHECK(f.served.serves({"other.example.com", "Gadget"}));
  // Served versions follow Kubernetes' priority, as discovery lists them, not the CRD's order.
  f.load("queues.yaml", R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: clusterqueues.kueue.x-k8s.io}
spec:
  group: kueue.x-k8s.io
  names: {kind: ClusterQueue, plural: clusterqueues}
  scope: Cluster
  versions: [{name: v1beta1, served: true}, {name: v1beta2, served: true, storage: true}]
)");
  CHECK(f.served.find({"kueue.x-k8s.io", "ClusterQueue"})->versions == std::vector<std::string>{"v1beta2", "v1beta1"});
  CHECK(f.report.objects_by_kind.at("Gadget.other.example.com") == 1);
}

TEST_CASE("managedFields and last-applied-configuration are dropped at ingest", "[loader]") {
  text_loader f;
  f.load("a.yaml", R"(
apiVersion: v1
kind: Node
metadata:
  name: n1
  managedFields: [{manager: kubelet, operation: Update}]
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: "{...}"
    keep: me
)");
  auto node = f.store.get({"", "Node"}, "", "n1");
  REQUIRE(node);
  CHECK_FALSE(node->body()["metadata"].contains("managedFields"));
  CHECK(node->body()["metadata"]["annotations"].size() == 1);
  CHECK(node->body()["metadata"]["annotations"]["keep"] == "me");
}

TEST_CASE("the upstream CRDs all load and make their kinds served", "[loader][upstream]") {
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_loader loader(store, served, profiles, testing::at("2026-11-29T12:00:00Z"));
  // Every operator's CRDs, from its Go module at the pinned version.
  for (const std::string& name : testing::upstream_file_sets("crds/")) {
    INFO(name);
    snapshot_report report = loader.load(testing::upstream_files(name));
    CHECK(report.errors.empty());
  }
  CHECK(served.serves({"kueue.x-k8s.io", "ClusterQueue"}));
  CHECK(served.serves({"ray.io", "RayCluster"}));
  CHECK(served.serves({"nvidia.com", "ClusterPolicy"}));
  auto versions = served.group_versions("kueue.x-k8s.io");
  CHECK(std::find(versions.begin(), versions.end(), "v1beta1") != versions.end());
}

TEST_CASE("a broken document is reported by its line and the documents around it still load", "[loader]") {
  // "," alone is the stream that sends yaml-cpp 0.7's LoadAll into an endless loop.
  text_loader f;
  f.load("x.yaml",
         "apiVersion: v1\nkind: Node\nmetadata: {name: first}\n---\n,\n---\n"
         "apiVersion: v1\nkind: Node\nmetadata: {name: [unclosed\n---\n"
         "apiVersion: v1\nkind: Node\nmetadata: {name: last}\n");
  CHECK(f.store.count({"", "Node"}) == 2);
  REQUIRE(f.report.errors.size() == 1);  // yaml-cpp reads the lone "," as an empty document
  CHECK(f.report.errors[0].line >= 7);
  CHECK_THAT(f.report.errors[0].message, Catch::StartsWith("cannot parse YAML"));
}

TEST_CASE("an empty or blank file loads nothing and reports nothing", "[loader]") {
  text_loader f;
  f.load("empty.json", "");
  f.load("blank.json", " \n\t\n");
  f.load("empty.yaml", "");
  CHECK(f.report.errors.empty());
  CHECK(f.report.objects_loaded == 0);
}

TEST_CASE("a broken value in a JSON stream is reported and the values after it still load", "[loader]") {
  text_loader f;
  f.load("dump.json",
         "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}\n"
         "{\"kind\":\"Node\" \"apiVersion\":\"v1\"}\n"
         "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"b\"}}\n");
  CHECK(f.store.count({"", "Node"}) == 2);
  REQUIRE(f.report.errors.size() == 1);
  CHECK(f.report.errors[0].line == 2);
  CHECK_THAT(f.report.errors[0].message, Catch::StartsWith("cannot parse JSON"));
}

TEST_CASE("a file with one broken document among good ones counts as read", "[loader]") {
  auto dir = temp_dir("mixed");
  write_file(dir / "mixed.yaml",
             "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
             "apiVersion: v1\nkind: Node\nmetadata: {name: [unclosed\n---\n"
             "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n"
             "apiVersion: v1\nkind: Node\nmetadata: {name: n3}\n---\n"
             "apiVersion: v1\nkind: Node\nmetadata: {name: [also unclosed\n");
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_loader loader(store, served, profiles, testing::at("2026-11-29T12:00:00Z"));
  snapshot_report report = loader.load(dir);
  CHECK(store.count({"", "Node"}) == 3);
  CHECK(report.files_read == 1);
  CHECK(report.files_skipped == 0);
  CHECK(report.errors.size() == 2);
  CHECK(report.summary() == "loaded 3 objects from 1 file (3 Node); 2 objects skipped");
  std::filesystem::remove_all(dir);
}

// Snapshot YAML is outside input: a plain scalar of any length is typed in time linear in it
// (issue 32: a 30 000-digit scalar overflowed std::regex's recursion and killed the daemon at
// start, with no log line).
TEST_CASE("a plain YAML scalar of 30 000 digits loads as text, beside the objects around it", "[loader][hostile]") {
  text_loader f;
  const std::string digits(30000, '7');
  const std::string float_like = "1." + std::string(30000, '5') + "e3";
  f.loader.load_text(
      "long.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: long, namespace: ml}\ndata:\n  digits: " + digits +
          "\n  float: " + float_like + "\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
      false, f.report);
  CHECK(f.report.errors.empty());
  CHECK(f.report.objects_loaded == 2);
  auto config = f.store.get({"", "ConfigMap"}, "ml", "long");
  REQUIRE(config);
  // No number a Kubernetes object holds is this long: it stays the text it was.
  CHECK(config->body()["data"]["digits"] == digits);
  CHECK(config->body()["data"]["float"] == float_like);
}

TEST_CASE("plain YAML scalars are still typed as YAML 1.2's core schema types them", "[loader]") {
  text_loader f;
  f.loader.load_text("numbers.yaml", R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: numbers, namespace: ml}
data:
  values: [1.5, -.5, +2., 3e4, 1.5E-3, "1.5", ., -., 1e, e3, 1.2.3, 0x1F, -7, .inf, -.Inf, 9223372036854775808]
)",
                     false, f.report);
  REQUIRE(f.report.errors.empty());
  auto config = f.store.get({"", "ConfigMap"}, "ml", "numbers");
  REQUIRE(config);
  const json values = config->body()["data"]["values"];
  CHECK(values[0] == 1.5);
  CHECK(values[1] == -0.5);
  CHECK(values[2] == 2.0);
  CHECK(values[3] == 30000.0);
  CHECK(values[4] == 0.0015);
  CHECK(values[5] == "1.5");
  CHECK(values[6] == ".");
  CHECK(values[7] == "-.");
  CHECK(values[8] == "1e");
  CHECK(values[9] == "e3");
  CHECK(values[10] == "1.2.3");
  CHECK(values[11] == 31);
  CHECK(values[12] == -7);
  CHECK(values[13].is_number());
  CHECK(values[14].is_number());
  CHECK(values[15].is_number());
}
