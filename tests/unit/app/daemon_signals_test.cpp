// The daemon and the signals an operator or a kubelet sends it (issue 32): SIGHUP and SIGUSR1
// are said in the log and do what the README says, SIGTERM is acted on during a long snapshot
// load, and settings it could never honour stop it at start with a clear error.
#include <signal.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "util/json.hpp"

using namespace sextant;
using sextant::testing::daemon_process;
using sextant::testing::http_call;

namespace {

std::filesystem::path scratch_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("sextant-signals-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool kueue_workloads_enabled(unsigned short port) {
  json settings = json::parse(http_call(port, "GET", "/api/v1/settings/problems").body);
  return settings["categories"].value("kueue-workloads", json::object()).value("enabled", false);
}

}  // namespace

TEST_CASE("SIGHUP re-reads the problem settings and SIGUSR1 logs a status line; neither stops the daemon",
          "[e2e][signals]") {
  auto dir = scratch_dir("notices");
  const auto settings = dir / "settings.json";
  daemon_process daemon({"--snapshot", (testing::source_dir() / "examples/demo-cluster").string(), "--now",
                         "2026-11-29T12:00:00Z", "--settings-file", settings.string(), "--log-format", "text"});
  CHECK_FALSE(kueue_workloads_enabled(daemon.port()));

  // An administrator edits the file; SIGHUP puts it in force without a restart.
  std::ofstream(settings) << R"({"categories": {"kueue-workloads": {"enabled": true}}})";
  REQUIRE(daemon.signal(SIGHUP));
  REQUIRE(daemon.wait_for_log("SIGHUP: re-reading the problem settings from " + settings.string(),
                              std::chrono::seconds(10)));
  CHECK(kueue_workloads_enabled(daemon.port()));

  REQUIRE(daemon.signal(SIGUSR1));
  REQUIRE(daemon.wait_for_log("SIGUSR1: ", std::chrono::seconds(10)));
  CHECK_THAT(daemon.log(), Catch::Contains("objects of") && Catch::Contains("problems current"));
  CHECK(http_call(daemon.port(), "GET", "/healthz").status == 200);
  CHECK(daemon.stop(SIGTERM, std::chrono::seconds(5)) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("SIGTERM during a long snapshot load stops the daemon at once, cleanly", "[e2e][signals]") {
  // 40 files of 1 500 ConfigMaps: seconds to load under the sanitizers, far more than a step.
  auto dir = scratch_dir("long-load");
  for (int file = 0; file < 40; ++file) {
    std::ofstream out(dir / ("maps-" + std::to_string(file) + ".yaml"));
    for (int i = 0; i < 1500; ++i) {
      out << "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m-" << file << "-" << i
          << ", namespace: ml}\ndata: {a: b}\n---\n";
    }
  }
  daemon_process daemon({"--snapshot", dir.string(), "--log-format", "text"}, daemon_process::no_wait{});
  REQUIRE(daemon.wait_for_log("reading 40 files", std::chrono::seconds(20)));
  const auto signalled = std::chrono::steady_clock::now();
  CHECK(daemon.stop(SIGTERM, std::chrono::seconds(5)) == 0);
  CHECK(std::chrono::steady_clock::now() - signalled < std::chrono::seconds(3));
  CHECK_THAT(daemon.log(), Catch::Contains("SIGTERM") && Catch::Contains("stopped before it was read whole"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("settings the daemon could never honour stop it at start with an error that names them", "[e2e][config]") {
  auto dir = scratch_dir("start-errors");
  auto [settings_code, settings_text] = testing::run_to_exit("--snapshot " + dir.string() + " --settings-file " +
                                                             (dir / "no/such/dir/settings.json").string());
  CHECK(settings_code == 1);
  CHECK_THAT(settings_text, Catch::Contains("--settings-file") && Catch::Contains("does not exist"));

  auto [directory_code, directory_text] = testing::run_to_exit("--config " + dir.string());
  CHECK(directory_code == 2);
  CHECK_THAT(directory_text, Catch::Contains("--config") && Catch::Contains("is a directory"));

  auto [zero_code, zero_text] = testing::run_to_exit("--config /dev/zero");
  CHECK(zero_code == 2);
  CHECK_THAT(zero_text, Catch::Contains("/dev/zero is larger than"));

  std::ofstream(dir / "list-key.yaml") << "[listen]: 127.0.0.1:9\n";
  auto [list_code, list_text] = testing::run_to_exit("--config " + (dir / "list-key.yaml").string());
  CHECK(list_code == 2);
  CHECK_THAT(list_text, Catch::Contains("list-key.yaml:1") && Catch::Contains("name of a setting"));

  std::ofstream(dir / "map-key.yaml") << "? {a: b}\n: 1\n";
  auto [map_code, map_text] = testing::run_to_exit("--config " + (dir / "map-key.yaml").string());
  CHECK(map_code == 2);
  CHECK_THAT(map_text, Catch::Contains("map-key.yaml:1") && Catch::Contains("name of a setting"));
  std::filesystem::remove_all(dir);
}
