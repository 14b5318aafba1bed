// The DRA section against a real API server. For each resource.k8s.io version the server can
// serve on its own, objects written in that version's shape give, through `sextantd
// --kubeconfig`, the views `sextantd --snapshot` gives over the same objects dumped from the
// server. A reader who may not list claims is told "cannot tell" for every device, never
// "free"; past 500 Resource Slices the Devices page says it is cut.

#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"
#include "util/time.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace fs = std::filesystem;

namespace {

constexpr const char* ns = "ml";
constexpr const char* driver = "gpu.example.com";
const std::vector<std::string> dra_plurals{"deviceclasses", "resourceslices", "resourceclaims",
                                           "resourceclaimtemplates"};

json section_entry(const sextantd_process& daemon, const std::string& id) {
  json sections = daemon.get("/api/v1/sections");
  for (const json& s : array_or_empty(sections, {"sections"})) {
    if (s.value("id", "") == id) {
      return s;
    }
  }
  return json();
}

// Every served list of a section and every item's details, live against snapshot; returns how
// many details pages were compared.
std::size_t compare_section(const sextantd_process& live, const sextantd_process& snapshot, const std::string& id) {
  INFO("section " << id);
  json entry = section_entry(snapshot, id);
  REQUIRE(entry.is_object());
  std::size_t compared = 0;
  for (const json& r : entry.value("resources", json::array())) {
    if (!r.value("served", false)) {
      continue;
    }
    const std::string path = "/api/v1/" + id + "/" + r.value("id", "");
    answer from_snapshot = http_get(snapshot.url(), path);
    REQUIRE(from_snapshot.status == 200);
    json list = from_snapshot.body();
    {
      INFO("GET " << path);
      CHECK(compare_page(live.url(), path, list) == std::vector<std::string>{});
    }
    for (const json& item : array_or_empty(list, {"items"})) {
      if (!item.contains("path") || !item["path"].is_string()) {
        continue;  // a Devices row: its slice has the details
      }
      const std::string details = item["path"].get<std::string>();
      INFO("GET " << details);
      CHECK(compare_page(live.url(), details, snapshot.get(details)) == std::vector<std::string>{});
      ++compared;
    }
  }
  return compared;
}

// ---- the objects, in the shape of one version

// In 1.37 v1alpha3 holds only DeviceTaintRule and ResourcePoolStatusRequest.
bool serves_claims(const std::string& version) {
  return version != "v1alpha3";
}

// v1beta2 and v1 moved a request's fields under `exactly` and a device's out of `basic`.
bool flattened(const std::string& version) {
  return version == "v1" || version == "v1beta2";
}

std::string dra_api(const std::string& version) {
  return "resource.k8s.io/" + version;
}

std::string dra_collection(const std::string& version, const std::string& plural, bool namespaced) {
  return "/apis/" + dra_api(version) + (namespaced ? std::string("/namespaces/") + ns : "") + "/" + plural;
}

json dra_object(const std::string& version, const std::string& kind, json metadata, json spec) {
  return json{
      {"apiVersion", dra_api(version)}, {"kind", kind}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
}

json cel(const std::string& expression) {
  return json{{"cel", {{"expression", expression}}}};
}

json device_class(const std::string& version) {
  json spec = {{"selectors", json::array({cel("device.driver == 'gpu.example.com'")})}};
  return dra_object(version, "DeviceClass", {{"name", driver}}, spec);
}

json gpu_device(const std::string& version, int index) {
  json fields = {{"attributes", {{"model", {{"string", "LATEST-GPU-MODEL"}}}, {"index", {{"int", index}}}}},
                 {"capacity", {{"memory", {{"value", "80Gi"}}}}}};
  json device = {{"name", "gpu-" + std::to_string(index)}};
  if (flattened(version)) {
    device.update(fields);
  } else {
    device["basic"] = fields;
  }
  return device;
}

// The driver's one slice for a node: its pool, two GPUs.
json node_slice(const std::string& version, const std::string& node) {
  json spec = {{"driver", driver},
               {"nodeName", node},
               {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
               {"devices", json::array({gpu_device(version, 0), gpu_device(version, 1)})}};
  return dra_object(version, "ResourceSlice", {{"name", node + "-" + driver}}, spec);
}

json exact_request(const std::string& version, int count) {
  json fields = {{"deviceClassName", driver}, {"allocationMode", "ExactCount"}, {"count", count}};
  json request = {{"name", "gpu"}};
  if (flattened(version)) {
    request["exactly"] = fields;
  } else {
    request.update(fields);
  }
  return request;
}

// The same in every version that has it: ordered alternatives.
json first_available_request() {
  json a100 = {{"name", "a100"},
               {"deviceClassName", driver},
               {"selectors", json::array({cel("device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'")})}};
  json any = {{"name", "any"}, {"deviceClassName", driver}};
  return json{{"name", "gpu"}, {"firstAvailable", json::array({a100, any})}};
}

json claim_spec(const json& request) {
  return json{{"devices", {{"requests", json::array({request})}}}};
}

json claim_template(const std::string& version, const std::string& name, const json& request) {
  return dra_object(version, "ResourceClaimTemplate", {{"name", name}, {"namespace", ns}},
                    {{"spec", claim_spec(request)}});
}

json claim(const std::string& version, const std::string& name, const json& request, json metadata = json::object()) {
  metadata["name"] = name;
  metadata["namespace"] = ns;
  return dra_object(version, "ResourceClaim", metadata, claim_spec(request));
}

// What the scheduler writes when it allocates `device` of the node's pool for request "gpu".
json allocated_on(const std::string& node, const std::string& device) {
  json result = {{"request", "gpu"}, {"driver", driver}, {"pool", node}, {"device", device}};
  json on_node = {{"key", "metadata.name"}, {"operator", "In"}, {"values", json::array({node})}};
  json term = {{"matchFields", json::array({on_node})}};
  return json{{"allocation",
               {{"devices", {{"results", json::array({result})}}},
                {"nodeSelector", {{"nodeSelectorTerms", json::array({term})}}}}}};
}

json gpu_pod(const std::string& name, const json& pod_claim, const std::string& node = {}) {
  json pod = pod_object(ns, name);
  pod["spec"]["resourceClaims"] = json::array({pod_claim});
  pod["spec"]["containers"][0]["resources"] = {{"claims", json::array({{{"name", pod_claim["name"]}}})}};
  if (!node.empty()) {
    pod["spec"]["nodeName"] = node;
  }
  return pod;
}

json from_template(const std::string& template_name) {
  return json{{"name", "gpu"}, {"resourceClaimTemplateName", template_name}};
}
json direct(const std::string& claim_name) {
  return json{{"name", "gpu"}, {"resourceClaimName", claim_name}};
}

const std::string trainer_claim = "trainer-0-gpu-7k2dp";  // the resourceclaim controller's generated name

// Two GPU nodes and their driver's slices, a class, templates, claims in every state a bare
// server can hold, and pods using them:
//   trainer-0   Running on gpu-node-a; its claim from template one-gpu is In use (gpu-node-a/gpu-0).
//   notebook-0  its claim from one-gpu was not created yet.
//   finetune-0  waits for claim big-gpu (Pending); the scheduler said it cannot allocate all claims,
//               10 minutes ago, so it is a DRA problem.
//   orphan-0    names a claim that does not exist.
//   spare-gpu   Allocated (gpu-node-b/gpu-1), reserved for nobody; old-gpu is Deleting.
// Where `version` has no claims, only the nodes and pods are written.
void write_gpu_cluster(admin_client& admin, const std::string& version) {
  create(admin, "/api/v1/namespaces", namespace_object(ns));
  for (const char* node : {"gpu-node-a", "gpu-node-b"}) {
    create(admin, "/api/v1/nodes", node_object(node));
  }
  const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";
  json trainer = create(admin, pods, gpu_pod("trainer-0", from_template("one-gpu"), "gpu-node-a"));
  create(admin, pods, gpu_pod("notebook-0", from_template("one-gpu")));
  json finetune = create(admin, pods, gpu_pod("finetune-0", direct("big-gpu")));
  create(admin, pods, gpu_pod("orphan-0", direct("missing-gpu")));

  json running = {{"phase", "Running"},
                  {"startTime", format_rfc3339(std::chrono::system_clock::now() - std::chrono::minutes(30))},
                  {"resourceClaimStatuses", json::array({{{"name", "gpu"}, {"resourceClaimName", trainer_claim}}})}};
  write_status(admin, pods, trainer, running);
  json unschedulable = {
      {"type", "PodScheduled"},
      {"status", "False"},
      {"reason", "Unschedulable"},
      {"message",
       "0/2 nodes are available: cannot allocate all claims. still not schedulable, "
       "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
      {"lastTransitionTime", format_rfc3339(std::chrono::system_clock::now() - std::chrono::minutes(10))}};
  write_status(admin, pods, finetune, {{"phase", "Pending"}, {"conditions", json::array({unschedulable})}});

  if (!serves_claims(version)) {
    return;
  }
  create(admin, dra_collection(version, "deviceclasses", false), device_class(version));
  for (const char* node : {"gpu-node-a", "gpu-node-b"}) {
    create(admin, dra_collection(version, "resourceslices", false), node_slice(version, node));
  }
  const std::string templates = dra_collection(version, "resourceclaimtemplates", true);
  create(admin, templates, claim_template(version, "one-gpu", exact_request(version, 1)));
  create(admin, templates, claim_template(version, "a100-or-any", first_available_request()));

  const std::string claims = dra_collection(version, "resourceclaims", true);
  json owner = {{"apiVersion", "v1"},  {"kind", "Pod"},
                {"name", "trainer-0"}, {"uid", trainer["metadata"]["uid"]},
                {"controller", true},  {"blockOwnerDeletion", true}};
  json generated = {{"ownerReferences", json::array({owner})},
                    {"annotations", {{"resource.kubernetes.io/pod-claim-name", "gpu"}}}};
  json in_use = allocated_on("gpu-node-a", "gpu-0");
  json reserved = {{"resource", "pods"}, {"name", "trainer-0"}, {"uid", trainer["metadata"]["uid"]}};
  in_use["reservedFor"] = json::array({reserved});
  write_status(admin, claims,
               create(admin, claims, claim(version, trainer_claim, exact_request(version, 1), generated)), in_use);
  write_status(admin, claims, create(admin, claims, claim(version, "spare-gpu", exact_request(version, 1))),
               allocated_on("gpu-node-b", "gpu-1"));
  create(admin, claims, claim(version, "big-gpu", exact_request(version, 8)));
  create(admin, claims,
         claim(version, "old-gpu", exact_request(version, 1), {{"finalizers", json::array({"example.com/hold"})}}));
  answer deleted = admin.remove(claims + "/old-gpu");
  REQUIRE(deleted.ok());  // the finalizer keeps it, with a deletionTimestamp
}

// The server's objects as `kubectl get -o json` dumps them, one List per collection.
fs::path dump_snapshot(admin_client& admin, const fs::path& dir, const std::vector<std::string>& collections) {
  fs::create_directories(dir);
  int file = 0;
  for (const std::string& path : collections) {
    answer list = admin.get(path);
    INFO("GET " << path << ": " << list.status << " " << list.text.substr(0, 300));
    REQUIRE(list.ok());
    write_text(dir / ("list-" + std::to_string(file++) + ".json"), list.text);
  }
  return dir;
}

std::vector<std::string> gpu_cluster_collections(const std::string& version) {
  std::vector<std::string> out{"/api/v1/nodes", "/api/v1/pods"};
  if (serves_claims(version)) {
    for (const std::string& plural : dra_plurals) {
      out.push_back("/apis/" + dra_api(version) + "/" + plural);
    }
  }
  return out;
}

// Flags that leave `version` the only resource.k8s.io version served (v1 is on by default;
// kube-apiserver merges repeated --runtime-config flags).
std::vector<std::string> only_dra_version(const std::string& version) {
  std::vector<std::string> args{"--dra-versions=" + version};
  if (version != "v1") {
    args.push_back("--apiserver-arg=--runtime-config=resource.k8s.io/v1=false");
  }
  return args;
}

const json* find_item(const json& list, const std::string& name) {
  for (const json& item : array_or_empty(list, {"items"})) {
    if (item.value("name", "") == name) {
      return &item;
    }
  }
  return nullptr;
}

const json* find_device(const json& devices, const std::string& pool, const std::string& device) {
  for (const json& row : array_or_empty(devices, {"items"})) {
    if (row.value("pool", "") == pool && row.value("device", "") == device) {
      return &row;
    }
  }
  return nullptr;
}

std::string state_of(const json& list, const std::string& name) {
  const json* item = find_item(list, name);
  return item == nullptr ? "(absent)" : string_or(*item, {"state", "label"});
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the DRA views --snapshot serves, in each resource.k8s.io version alone",
          "[integration][dra]") {
  const std::string version = GENERATE(as<std::string>{}, "v1", "v1beta2", "v1beta1", "v1alpha3");
  CAPTURE(version);
  test_cluster cluster({{}, true, only_dra_version(version)});
  REQUIRE(cluster.env("DRA_VERSIONS") == version);
  admin_client admin = cluster.admin();
  write_gpu_cluster(admin, version);

  fs::path snapshot = dump_snapshot(admin, cluster.dir() / "snapshot", gpu_cluster_collections(version));
  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  sextantd_process files({"--snapshot", snapshot.string()}, cluster.dir() / "snapshot.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  REQUIRE(files.wait_ready(std::chrono::seconds(30)));

  CHECK(compare_page(live.url(), "/api/v1/sections", files.get("/api/v1/sections")) == std::vector<std::string>{});
  // With v1alpha3 alone no ResourceClaim is served: live mode must then hold the kind complete
  // and empty as snapshot mode does, so a pod's claims read "Not found" in both.
  std::size_t compared = compare_section(live, files, "core");

  if (!serves_claims(version)) {
    // No DRA kind is served: no section, and a pod's claims cannot be found among none.
    CHECK(section_entry(live, "dra").is_null());
    CHECK(section_entry(files, "dra").is_null());
    CHECK(http_get(live.url(), "/api/v1/dra/devices").status == 404);
    CHECK(http_get(files.url(), "/api/v1/dra/devices").status == 404);
    CHECK(compared >= 6);
    return;
  }
  compared += compare_section(live, files, "dra");
  CHECK(compared >= 6 + 2 + 2 + 4 + 1);  // pods and nodes, slices, templates, claims, class

  // Read in the version written, and interpreted: the comparison cannot pass on empty views.
  CHECK(section_entry(live, "dra").value("readVersion", "") == version);
  json claims = live.get("/api/v1/dra/resourceclaims");
  for (const json& item : array_or_empty(claims, {"items"})) {
    CHECK(item.value("apiVersion", "") == dra_api(version));
  }
  CHECK(state_of(claims, trainer_claim) == "In use");
  CHECK(state_of(claims, "spare-gpu") == "Allocated");
  CHECK(state_of(claims, "big-gpu") == "Pending");
  CHECK(state_of(claims, "old-gpu") == "Deleting");

  json devices = live.get("/api/v1/dra/devices");
  CHECK(array_or_empty(devices, {"items"}).size() == 4);
  CHECK(devices.value("incomplete", true) == false);
  const json* held = find_device(devices, "gpu-node-a", "gpu-0");
  REQUIRE(held != nullptr);
  CHECK(string_or(*held, {"allocatedTo", "name"}) == trainer_claim);
  CHECK(string_or(*held, {"node"}) == "gpu-node-a");
  const json* spare = find_device(devices, "gpu-node-b", "gpu-1");
  REQUIRE(spare != nullptr);
  CHECK(string_or(*spare, {"allocatedTo", "name"}) == "spare-gpu");
  const json* free_device = find_device(devices, "gpu-node-a", "gpu-1");
  REQUIRE(free_device != nullptr);
  CHECK(free_device->contains("allocatedTo"));
  CHECK(free_device->value("allocatedTo", json("absent")).is_null());

  json trainer = live.get(std::string("/api/v1/core/pods/") + ns + "/trainer-0");
  REQUIRE(trainer.contains("claims"));
  CHECK(string_or(trainer["claims"][0], {"claimName"}) == trainer_claim);
  CHECK(string_or(trainer["claims"][0], {"state"}) == "In use");
  CHECK(trainer["claims"][0].value("reservedForPod", false));
  json notebook = live.get(std::string("/api/v1/core/pods/") + ns + "/notebook-0");
  CHECK(string_or(notebook, {"claims", 0, "state"}) == "Not created yet");
  json orphan = live.get(std::string("/api/v1/core/pods/") + ns + "/orphan-0");
  CHECK(string_or(orphan, {"claims", 0, "state"}) == "Not found");
  json finetune = live.get(std::string("/api/v1/core/pods/") + ns + "/finetune-0");
  bool dra_problem = false;
  for (const json& p : finetune.value("problems", json::array())) {
    dra_problem = dra_problem || p.value("category", "") == "dra";
  }
  CHECK(dra_problem);
}

TEST_CASE("a reader who may not list ResourceClaims is told \"cannot tell\" for every device, never free",
          "[integration][dra]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  write_gpu_cluster(admin, "v1");

  // Everything sextantd reads here except claims. A bare server aggregates no roles, so the
  // rules are explicit.
  json everything_core = {{"apiGroups", json::array({"", "batch"})},
                          {"resources", json::array({"*"})},
                          {"verbs", json::array({"get", "list", "watch"})}};
  json dra_but_claims = {{"apiGroups", json::array({"resource.k8s.io"})},
                         {"resources", json::array({"deviceclasses", "resourceslices", "resourceclaimtemplates"})},
                         {"verbs", json::array({"get", "list", "watch"})}};
  json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "ClusterRole"},
               {"metadata", {{"name", "sextant-reader-without-claims"}}},
               {"rules", json::array({everything_core, dra_but_claims})}};
  json subject = {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "User"}, {"name", "sextant-reader"}};
  json binding = {
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "ClusterRoleBinding"},
      {"metadata", {{"name", "sextant-reader-without-claims"}}},
      {"roleRef",
       {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "sextant-reader-without-claims"}}},
      {"subjects", json::array({subject})}};
  create(admin, "/apis/rbac.authorization.k8s.io/v1/clusterroles", role);
  create(admin, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", binding);

  sextantd_process reader({"--kubeconfig", cluster.env("KUBECONFIG_READER")}, cluster.dir() / "reader.log");
  REQUIRE(reader.wait_ready(std::chrono::seconds(60)));

  // RBAC takes effect at once, but the daemon may have listed before; wait for the devices.
  json devices;
  for (int attempt = 0; attempt < 50; ++attempt) {
    devices = reader.get("/api/v1/dra/devices");
    if (array_or_empty(devices, {"items"}).size() == 4) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(array_or_empty(devices, {"items"}).size() == 4);
  for (const json& row : devices["items"]) {
    INFO(row.value("pool", "") << "/" << row.value("device", ""));
    CHECK(row["allocatedTo"] == json("cannot tell"));  // gpu-node-a/gpu-0 is held, the rest free
  }

  // Ready (nothing more will come of a forbidden kind), but /readyz and /metrics name it.
  answer ready = http_get(reader.url(), "/readyz");
  CHECK(ready.status == 200);
  CHECK_THAT(ready.text, Catch::Contains("forbidden, so not read: resourceclaims.resource.k8s.io"));
  CHECK_THAT(http_get(reader.url(), "/metrics").text,
             Catch::Contains("sextant_watch_forbidden{resource=\"resourceclaims.resource.k8s.io\"} 1"));

  json claims = reader.get("/api/v1/dra/resourceclaims");
  CHECK(array_or_empty(claims, {"items"}).empty());
  CHECK(claims.value("incomplete", false));
  CHECK_THAT(claims.value("incompleteReason", std::string()), Catch::StartsWith("forbidden"));

  json trainer = reader.get(std::string("/api/v1/core/pods/") + ns + "/trainer-0");
  CHECK(string_or(trainer, {"claims", 0, "state"}) == "cannot tell");
  json node = reader.get("/api/v1/core/nodes/gpu-node-a");
  CHECK(node.value("draDevices", json::array()).size() == 2);
  bool told = false;
  for (const json& note : node.value("notes", json::array())) {
    told = told || (note.is_string() && note.get<std::string>().find("cannot be told") != std::string::npos);
  }
  CHECK(told);
}

TEST_CASE("past 500 ResourceSlices the Devices page says it is cut", "[integration][dra]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  std::vector<std::pair<std::string, json>> slices;
  const std::string collection = dra_collection("v1", "resourceslices", false);
  for (int i = 0; i < 510; ++i) {
    std::string pool = "pool-" + std::to_string(1000 + i);
    json spec = {{"driver", driver},
                 {"allNodes", true},
                 {"pool", {{"name", pool}, {"generation", 1}, {"resourceSliceCount", 1}}},
                 {"devices", json::array({gpu_device("v1", 0)})}};
    slices.emplace_back(collection, dra_object("v1", "ResourceSlice", {{"name", pool}}, spec));
  }
  CHECK(create_all(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), slices) ==
        std::vector<std::string>{});

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  // The dump holds the (empty) claim list too, as `kubectl get -A -o json` would: a snapshot
  // without it has not read the claims, and its devices say "cannot tell".
  fs::path snapshot =
      dump_snapshot(admin, cluster.dir() / "snapshot", {collection, dra_collection("v1", "resourceclaims", false)});
  sextantd_process files({"--snapshot", snapshot.string()}, cluster.dir() / "snapshot.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  REQUIRE(files.wait_ready(std::chrono::seconds(30)));

  // The reflector lists with `limit` and keeps the first 500.
  json listed_slices = live.get("/api/v1/dra/resourceslices");
  CHECK(array_or_empty(listed_slices, {"items"}).size() == 500);
  CHECK(listed_slices.value("incomplete", false));

  json devices = live.get("/api/v1/dra/devices");
  CHECK(array_or_empty(devices, {"items"}).size() == 500);
  CHECK(devices.value("incomplete", false));
  CHECK_THAT(devices.value("incompleteReason", std::string()), Catch::Contains("500"));
  // The reflector's cut and the section's own cut in snapshot mode use the same words.
  CHECK(devices.value("incompleteReason", std::string()) == "cut at 500 Resource Slices");
  CHECK(compare_page(live.url(), "/api/v1/dra/devices", files.get("/api/v1/dra/devices")) ==
        std::vector<std::string>{});
}
