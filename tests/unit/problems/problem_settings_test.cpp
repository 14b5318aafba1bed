#include "problems/problem_settings.hpp"

#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

using namespace sextant;

namespace {
std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("sextant-settings-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  std::filesystem::remove(path);
  return path;
}
}  // namespace

TEST_CASE("settings round-trip through the file", "[settings]") {
  problem_settings_file file(scratch("roundtrip.json"));
  CHECK(file.load().enabled.empty());
  CHECK(file.load().error.empty());  // no file yet is no error
  REQUIRE(file.save({{"kueue-workloads", true}, {"dra", false}}).empty());
  auto loaded = file.load();
  CHECK(loaded.error.empty());
  CHECK(loaded.enabled == std::map<std::string, bool>{{"dra", false}, {"kueue-workloads", true}});
  CHECK_FALSE(std::filesystem::exists(file.path().string() + ".tmp"));
}

TEST_CASE("a corrupt or unreadable settings file is an error, and is left alone", "[settings]") {
  auto path = scratch("corrupt.json");
  std::ofstream(path) << "{\"categories\": {\"dra\": {\"enabled\": \"yes\"}}}";
  problem_settings_file file(path);
  auto loaded = file.load();
  CHECK_THAT(loaded.error, Catch::Contains("categories.dra.enabled"));
  CHECK(loaded.enabled.empty());

  std::ofstream(path) << "not json";
  CHECK_FALSE(file.load().error.empty());

  if (::geteuid() != 0) {  // root reads any file: the permission case only holds for others
    std::ofstream(path) << "{}";
    ::chmod(path.c_str(), 0);
    CHECK_THAT(file.load().error, Catch::Contains("cannot read"));
    ::chmod(path.c_str(), 0644);
  }
}

TEST_CASE("saving into a directory that does not exist fails with a message", "[settings]") {
  problem_settings_file file("/nonexistent-dir-for-sextant/settings.json");
  CHECK_THAT(file.save({{"dra", true}}), Catch::Contains("cannot write"));
}

TEST_CASE("an atomic save replaces the old file whole", "[settings]") {
  auto path = scratch("atomic.json");
  problem_settings_file file(path);
  REQUIRE(file.save({{"dra", true}}).empty());
  struct stat before {};
  REQUIRE(::stat(path.c_str(), &before) == 0);
  REQUIRE(file.save({{"dra", false}}).empty());
  struct stat after {};
  REQUIRE(::stat(path.c_str(), &after) == 0);
  CHECK(before.st_ino != after.st_ino);  // a new file renamed over the old, not rewritten in place
  CHECK(file.load().enabled.at("dra") == false);
}
