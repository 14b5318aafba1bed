// The problem settings' three homes, as an admin meets them: a mounted ConfigMap (re-read when
// the kubelet swaps the mount, never written), a file (changes saved), memory (nothing lasts).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <catch2/catch.hpp>

#include "problems/settings_home.hpp"
#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "util/json.hpp"

using namespace sextant;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("sextant-settings-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Writes the key as the kubelet updates a ConfigMap volume: the new content in a new folder,
// then the `..data` link swapped to it in one rename, the key itself a link through `..data`.
void publish_configmap(const fs::path& mount, const std::string& text, int generation) {
  fs::path version = mount / ("..v" + std::to_string(generation));
  fs::create_directories(version);
  std::ofstream(version / "problems.json") << text;
  fs::path link = mount / "..data_tmp";
  fs::remove(link);
  fs::create_directory_symlink(version.filename(), link);
  fs::rename(link, mount / "..data");
  if (!fs::is_symlink(mount / "problems.json")) {
    fs::create_symlink(fs::path("..data") / "problems.json", mount / "problems.json");
  }
}

std::vector<std::string> demo_args() {
  return {"--snapshot", (testing::source_dir() / "examples/demo-cluster").string(), "--now", "2026-11-29T12:00:00Z"};
}

json settings_of(unsigned short port) {
  return json::parse(testing::http_call(port, "GET", "/api/v1/settings/problems").body);
}

// Polls the settings until `done` holds (the ConfigMap is looked at every few seconds).
json settings_when(unsigned short port, const std::function<bool(const json&)>& done) {
  json last = settings_of(port);
  for (int i = 0; i < 80 && !done(last); ++i) {
    std::this_thread::sleep_for(100ms);
    last = settings_of(port);
  }
  return last;
}

}  // namespace

TEST_CASE("each home says where a setting lives and whether a change made through the API lasts", "[settings]") {
  json memory = settings_home::in_memory().storage_json();
  CHECK(memory["home"] == "memory");
  CHECK(memory["changesLast"] == false);
  CHECK(memory["path"].is_null());
  CHECK_THAT(memory["message"].get<std::string>(), Catch::Contains("lost when the daemon stops"));

  json file = settings_home::in_file("/var/lib/sextantd/settings.json").storage_json();
  CHECK(file["home"] == "file");
  CHECK(file["changesLast"] == true);
  CHECK_THAT(file["message"].get<std::string>(), Catch::Contains("each replica has its own"));

  json configmap = settings_home::in_configmap("/etc/sextantd/settings/problems.json").storage_json();
  CHECK(configmap["home"] == "configmap");
  CHECK(configmap["changesLast"] == false);
  CHECK_THAT(configmap["message"].get<std::string>(),
             Catch::Contains("this replica only") && Catch::Contains("set it in the ConfigMap"));
  // A ConfigMap is never written.
  CHECK(settings_home::in_configmap("/nonexistent/problems.json").save({{"dra", false}}).empty());
}

TEST_CASE("settings from a mounted ConfigMap: read at start, re-read when it changes, never written",
          "[settings][e2e]") {
  fs::path mount = fresh_dir("configmap");
  publish_configmap(mount, R"({"categories": {"kueue-workloads": {"enabled": true}}})", 1);
  std::vector<std::string> args = demo_args();
  args.insert(args.end(), {"--settings-configmap-file", (mount / "problems.json").string()});
  testing::daemon_process daemon(args);

  json at_start = settings_of(daemon.port());
  CHECK(at_start["categories"]["kueue-workloads"]["enabled"] == true);
  CHECK(at_start["storage"]["home"] == "configmap");
  CHECK(at_start["storage"]["error"].is_null());

  // A change through the API applies here, and says it will not last.
  auto put = testing::http_call(daemon.port(), "PUT", "/api/v1/settings/problems", {},
                                R"({"categories": {"dra": {"enabled": false}}})");
  REQUIRE(put.status == 200);
  json answered = json::parse(put.body);
  CHECK(answered["categories"]["dra"]["enabled"] == false);
  CHECK(answered["storage"]["changesLast"] == false);
  CHECK_THAT(fs::read_symlink(mount / "..data").string(), Catch::Equals("..v1"));  // nothing written

  // The admin edits the ConfigMap: it wins over this replica's change, and a category it no
  // longer names goes back to its default (kueue-workloads is off by default).
  publish_configmap(mount, R"({"categories": {"jobset": {"enabled": false}}})", 2);
  json edited =
      settings_when(daemon.port(), [](const json& s) { return s["categories"]["jobset"]["enabled"] == false; });
  CHECK(edited["categories"]["jobset"]["enabled"] == false);
  CHECK(edited["categories"]["dra"]["enabled"] == true);
  CHECK(edited["categories"]["kueue-workloads"]["enabled"] == false);

  // A half-edited ConfigMap changes nothing and says why.
  publish_configmap(mount, R"({"categories": {"jobset": )", 3);
  json broken = settings_when(daemon.port(), [](const json& s) { return !s["storage"]["error"].is_null(); });
  CHECK_FALSE(broken["storage"]["error"].is_null());
  CHECK(broken["categories"]["jobset"]["enabled"] == false);
  CHECK(daemon.stop(SIGTERM, 5s) == 0);
  fs::remove_all(mount);
}

TEST_CASE("a settings file and a settings ConfigMap together are refused at start", "[settings][e2e]") {
  auto [status, output] =
      testing::run_to_exit("--snapshot /tmp --settings-file /tmp/a.json --settings-configmap-file /tmp/b.json");
  CHECK(status == 1);
  CHECK_THAT(output, Catch::Contains("two homes for the same settings"));
}
