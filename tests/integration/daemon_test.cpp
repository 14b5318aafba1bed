// The done-when of the live client: `sextantd --kubeconfig K` against a real API server serves
// the same views that `sextantd --snapshot DIR` serves for the same objects. The demo cluster
// is written into the API server (objects, then their status through /status), the server's
// objects are dumped into a snapshot, and both daemons are asked every list and every details
// page.

#include <set>
#include <thread>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "kube/discovery.hpp"
#include "live_harness.hpp"
#include "sextantd_process.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace fs = std::filesystem;

namespace {

struct resource_path {
  std::string plural;
  bool namespaced = true;
};

// Every object of the demo cluster's files, Lists expanded.
// Every object of the demo cluster; `empty_lists` gets the typed lists that hold no item (an
// empty TrainedModelList: the kind was read, and has none) as {apiVersion, kind}, whose
// collections are dumped too.
std::vector<json> demo_objects(std::vector<json>* empty_lists = nullptr) {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(SEXTANT_SOURCE_DIR) / "examples" / "demo-cluster")) {
    if (entry.path().extension() == ".yaml") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<json> out;
  for (const fs::path& file : files) {
    for (const YAML::Node& document : YAML::LoadAllFromFile(file.string())) {
      json object = yaml_to_json(document);
      if (!object.is_object()) {
        continue;
      }
      // `List` and typed lists (`TrainedModelList`, empty in the demo: the kind was read).
      if (string_or(object, {"kind"}).ends_with("List")) {
        for (const json& item : array_or_empty(object, {"items"})) {
          out.push_back(item);
        }
        if (empty_lists != nullptr && array_or_empty(object, {"items"}).empty()) {
          std::string kind = string_or(object, {"kind"});
          empty_lists->push_back(
              {{"apiVersion", string_or(object, {"apiVersion"})}, {"kind", kind.substr(0, kind.size() - 4)}});
        }
      } else {
        out.push_back(std::move(object));
      }
    }
  }
  return out;
}

std::string collection(const std::string& api_version, const resource_path& r, const std::string& ns) {
  std::string base = api_version.find('/') == std::string::npos ? "/api/" + api_version : "/apis/" + api_version;
  return base + (r.namespaced ? "/namespaces/" + ns : "") + "/" + r.plural;
}

// Items and details of two daemons, compared page by page.
void compare_views(const std::string& live, const std::string& snapshot) {
  json snapshot_sections = http_get(snapshot, "/api/v1/sections").body();
  json live_sections = http_get(live, "/api/v1/sections").body();
  std::set<std::string> live_ids;
  for (const json& s : live_sections.value("sections", json::array())) {
    live_ids.insert(s.value("id", ""));
  }
  std::size_t compared = 0;
  for (const json& s : snapshot_sections.value("sections", json::array())) {
    const std::string id = s.value("id", "");
    INFO("section " << id);
    CHECK(live_ids.count(id) == 1);
    for (const json& r : s.value("resources", json::array())) {
      if (!r.value("served", false)) {
        continue;
      }
      const std::string path = "/api/v1/" + id + "/" + r.value("id", "");
      answer from_snapshot = http_get(snapshot, path);
      REQUIRE(from_snapshot.status == 200);
      json snapshot_list = from_snapshot.body();
      {
        INFO("GET " << path);
        CHECK(compare_page(live, path, snapshot_list) == std::vector<std::string>{});
      }
      for (const json& item : snapshot_list.value("items", json::array())) {
        if (!item.contains("path") || !item["path"].is_string()) {
          continue;
        }
        const std::string details = item["path"].get<std::string>();
        INFO("GET " << details);
        CHECK(compare_page(live, details, http_get(snapshot, details).body()) == std::vector<std::string>{});
        ++compared;
      }
    }
  }
  CHECK(compared >= 20);
}

}  // namespace

TEST_CASE("sextantd --kubeconfig serves the same views as --snapshot over the same objects", "[integration][daemon]") {
  // Every operator the demo cluster has objects of.
  test_cluster cluster(
      {{upstream_crds("kueue").string(), upstream_crds("jobset").string(), upstream_crds("gpu-operator").string(),
        upstream_crds("kuberay").string(), upstream_crds("kserve").string()}});
  admin_client admin = cluster.admin();

  // Where each kind is created: the server's own discovery documents.
  std::vector<json> empty_lists;
  std::vector<json> objects = demo_objects(&empty_lists);
  REQUIRE(objects.size() >= 40);
  kube::discovery_document document;
  std::set<std::string> versions;
  for (const json& object : objects) {
    versions.insert(string_or(object, {"apiVersion"}));
  }
  for (const json& list : empty_lists) {
    versions.insert(string_or(list, {"apiVersion"}));
  }
  for (const std::string& api_version : versions) {
    std::string path = api_version.find('/') == std::string::npos ? "/api/" + api_version : "/apis/" + api_version;
    answer resources = admin.get(path);
    REQUIRE(resources.ok());
    kube::parse_resource_list(resources.body(), std::string(group_of(api_version)),
                              std::string(version_of(api_version)), document);
  }
  auto where = [&document](const json& object) -> std::optional<resource_path> {
    const std::string api_version = string_or(object, {"apiVersion"});
    for (const kube::discovered_resource& r : document.resources) {
      if (r.group == group_of(api_version) && r.version == version_of(api_version) &&
          r.kind == string_or(object, {"kind"})) {
        return resource_path{r.plural, r.namespaced};
      }
    }
    return std::nullopt;
  };

  std::set<std::string> namespaces;
  for (const json& object : objects) {
    if (auto ns = get_string(object, {"metadata", "namespace"})) {
      namespaces.insert(*ns);
    }
  }
  for (const std::string& ns : namespaces) {
    admin.post("/api/v1/namespaces", namespace_object(ns));  // "default" exists already
  }
  std::size_t created = 0;
  std::vector<std::string> refused;
  for (json object : objects) {
    auto path = where(object);
    REQUIRE(path);
    const std::string ns = string_or(object, {"metadata", "namespace"});
    const std::string name = string_or(object, {"metadata", "name"});
    json status = object.contains("status") ? object["status"] : json();
    object["metadata"].erase("uid");
    object["metadata"].erase("resourceVersion");
    object.erase("status");
    const std::string target = collection(string_or(object, {"apiVersion"}), *path, ns);
    answer made = admin.post(target, object);
    if (!made.ok()) {
      refused.push_back("POST " + target + " " + name + ": " + std::to_string(made.status) + " " +
                        made.text.substr(0, 200));
      continue;
    }
    ++created;
    if (!status.is_null()) {
      json with_status = made.body();
      with_status["status"] = status;
      answer written = admin.put(target + "/" + name + "/status", with_status);
      if (!written.ok()) {
        refused.push_back("PUT " + target + "/" + name + "/status: " + std::to_string(written.status) + " " +
                          written.text.substr(0, 200));
      }
    }
  }
  for (const std::string& r : refused) {
    WARN(r);  // the comparison below holds for whatever the server took
  }
  REQUIRE(created >= objects.size() * 3 / 4);

  // The server's objects, as `kubectl get -o json` would dump them, plus its CRDs.
  const fs::path snapshot = cluster.dir() / "snapshot";
  fs::create_directories(snapshot);
  std::set<std::string> collections;
  std::vector<json> kinds = objects;
  kinds.insert(kinds.end(), empty_lists.begin(), empty_lists.end());
  for (const json& object : kinds) {
    if (auto path = where(object)) {
      std::string api_version = string_or(object, {"apiVersion"});
      std::string base = api_version.find('/') == std::string::npos ? "/api/" + api_version : "/apis/" + api_version;
      collections.insert(base + "/" + path->plural);
    }
  }
  collections.insert("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
  int file = 0;
  for (const std::string& path : collections) {
    answer list = admin.get(path);
    REQUIRE(list.ok());
    write_text(snapshot / ("list-" + std::to_string(file++) + ".json"), list.text);
  }

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  sextantd_process files({"--snapshot", snapshot.string()}, cluster.dir() / "snapshot.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  REQUIRE(files.wait_ready(std::chrono::seconds(30)));
  compare_views(live.url(), files.url());
}
