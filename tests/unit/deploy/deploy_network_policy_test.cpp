// deploy/'s NetworkPolicy admits exactly the ports the Deployment's container serves, the API
// port only from the sources the README names; and the kustomization applies every manifest.
#include <filesystem>
#include <set>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;

namespace {
YAML::Node document_of_kind(const std::string& file, const std::string& kind) {
  for (const YAML::Node& document : YAML::LoadAllFromFile((testing::source_dir() / "deploy" / file).string())) {
    if (document["kind"] && document["kind"].as<std::string>() == kind) {
      return document;
    }
  }
  FAIL("deploy/" << file << " has no " << kind);
  return {};
}
}  // namespace

TEST_CASE("the NetworkPolicy admits the API port from labelled namespaces and the probe port from anywhere",
          "[deploy]") {
  YAML::Node deployment = document_of_kind("deployment.yaml", "Deployment");
  std::set<int> served;
  for (const YAML::Node& port : deployment["spec"]["template"]["spec"]["containers"][0]["ports"]) {
    served.insert(port["containerPort"].as<int>());
  }
  YAML::Node policy = document_of_kind("network-policy.yaml", "NetworkPolicy");
  CHECK(policy["metadata"]["namespace"].as<std::string>() == deployment["metadata"]["namespace"].as<std::string>());
  CHECK(policy["spec"]["podSelector"]["matchLabels"]["app.kubernetes.io/name"].as<std::string>() ==
        deployment["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"].as<std::string>());
  std::set<int> admitted;
  for (const YAML::Node& rule : policy["spec"]["ingress"]) {
    REQUIRE(rule["ports"].size() == 1);
    const int port = rule["ports"][0]["port"].as<int>();
    admitted.insert(port);
    if (port == 8080) {
      // The API: labelled namespaces and sextantd's own, never everyone.
      REQUIRE(rule["from"]);
      CHECK(rule["from"][0]["namespaceSelector"]["matchLabels"]["sextant.io/api-access"].as<std::string>() == "true");
      CHECK(rule["from"].size() == 2);
    } else {
      CHECK_FALSE(rule["from"]);  // probes: the kubelet, from the node
    }
  }
  CHECK(admitted == served);
}

TEST_CASE("the kustomization applies every manifest in deploy/", "[deploy]") {
  YAML::Node kustomization = YAML::LoadFile((testing::source_dir() / "deploy/kustomization.yaml").string());
  std::set<std::string> listed;
  for (const YAML::Node& resource : kustomization["resources"]) {
    listed.insert(resource.as<std::string>());
  }
  std::set<std::string> present;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_dir() / "deploy")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && name != "kustomization.yaml") {
      present.insert(name);
    }
  }
  CHECK(listed == present);
}
