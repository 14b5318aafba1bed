#include "config/daemon_config.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;

TEST_CASE("flags set every documented key, and --key=value works too", "[config]") {
  auto parsed = parse_command_line({"--snapshot", "demo", "--now=2026-11-29T12:00:00Z", "--listen", "0.0.0.0:9090",
                                    "--max-connections", "8", "--in-cluster", "--log-format", "json"});
  CHECK(parsed.config.snapshot == "demo");
  REQUIRE(parsed.config.now.has_value());
  CHECK(format_rfc3339(*parsed.config.now) == "2026-11-29T12:00:00Z");
  CHECK(parsed.config.listen == "0.0.0.0:9090");
  CHECK(parsed.config.max_connections == 8);
  CHECK(parsed.config.in_cluster);
  CHECK(parsed.config.log_format == "json");
}

TEST_CASE("bad flags and values are errors that name them", "[config]") {
  auto error_of = [](std::vector<std::string> args) {
    try {
      parse_command_line(args);
    } catch (const config_error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of({"--colour", "red"}), Catch::Contains("unknown flag \"--colour\""));
  CHECK_THAT(error_of({"--listen", "8080"}), Catch::Contains("--listen") && Catch::Contains("ADDRESS:PORT"));
  CHECK_THAT(error_of({"--listen", "127.0.0.1:99999"}), Catch::Contains("out of range"));
  CHECK_THAT(error_of({"--probe-listen", "8081"}),
             Catch::Contains("--probe-listen") && Catch::Contains("ADDRESS:PORT"));
  CHECK_THAT(error_of({"--max-connections", "-3"}), Catch::Contains("--max-connections"));
  CHECK_THAT(error_of({"--log-format", "xml"}), Catch::Contains("not one of auto, text, json"));
  CHECK_THAT(error_of({"--now", "noon"}), Catch::Contains("RFC 3339"));
  CHECK_THAT(error_of({"--snapshot"}), Catch::Contains("--snapshot needs a value"));
  CHECK_THAT(error_of({"--config", "/no/such/file.yaml"}), Catch::Contains("cannot read /no/such/file.yaml"));
}

TEST_CASE("the config file: every key documented in config/sextantd.yaml, unknown keys named", "[config]") {
  daemon_config config;
  std::ifstream in(testing::source_dir() / "config/sextantd.yaml");
  std::stringstream text;
  text << in.rdbuf();
  apply_config_yaml(config, text.str(), "sextantd.yaml");
  CHECK(config.probe_listen.empty());
  CHECK(config.listen == "127.0.0.1:8080");
  // Every option is in the default file, and every key of the file is an option.
  YAML::Node file = YAML::Load(text.str());
  for (const config_option& option : config_options()) {
    INFO(option.key);
    CHECK((file[option.key] || text.str().find("# " + option.key + ":") != std::string::npos));
    CHECK_THAT(text.str(), Catch::Contains(option.flag));
  }
  try {
    apply_config_yaml(config, "listen: 127.0.0.1:1\nmaxConnectons: 3\n", "my.yaml");
    FAIL("an unknown key was accepted");
  } catch (const config_error& error) {
    CHECK_THAT(error.what(), Catch::Contains("my.yaml:2") && Catch::Contains("unknown key \"maxConnectons\""));
  }
  CHECK_THROWS_AS(apply_config_yaml(config, "listen: [a, b]\n", "x.yaml"), config_error);
  CHECK_THROWS_AS(apply_config_yaml(config, "- a list\n", "x.yaml"), config_error);
}

TEST_CASE("flags win over the config file", "[config]") {
  auto path = std::filesystem::temp_directory_path() / "sextant-config-test.yaml";
  std::ofstream(path) << "listen: 127.0.0.1:7000\nlogLevel: debug\n";
  auto parsed = parse_command_line({"--listen", "127.0.0.1:7001", "--config", path.string()});
  CHECK(parsed.config.listen == "127.0.0.1:7001");
  CHECK(parsed.config.log_level == "debug");
  std::filesystem::remove(path);
}

TEST_CASE("the help text: every flag stands apart from its text", "[config]") {
  std::istringstream lines(sextant::usage_text());
  std::string line;
  int options = 0;
  while (std::getline(lines, line)) {
    if (!line.starts_with("  --") || line.starts_with("  --help")) {
      continue;
    }
    ++options;
    INFO(line);
    // "  --flag VALUE" then at least two spaces, then the text.
    std::size_t flag_end = line.find(' ', 2);
    if (line.compare(flag_end, 7, " VALUE ") == 0 || line.compare(flag_end, 6, " FILE ") == 0) {
      flag_end = line.find(' ', flag_end + 1);
    }
    CHECK(line.compare(flag_end, 2, "  ") == 0);
  }
  CHECK(options > 10);
  CHECK_THAT(sextant::usage_text(), Catch::Contains("--settings-configmap-file VALUE  A mounted ConfigMap key"));
}

TEST_CASE("a config file that is a directory, a device or has a list or mapping for a key is a clear error",
          "[config]") {
  auto error_of = [](const std::function<void()>& run) {
    try {
      run();
    } catch (const config_error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  daemon_config config;
  CHECK_THAT(error_of([&] { apply_config_yaml(config, "[listen]: 127.0.0.1:9\n", "list.yaml"); }),
             Catch::Contains("list.yaml:1") && Catch::Contains("name of a setting"));
  CHECK_THAT(error_of([&] { apply_config_yaml(config, "? {a: b}\n: 1\n", "map.yaml"); }),
             Catch::Contains("map.yaml:1") && Catch::Contains("name of a setting"));
  // An alias bomb (10^6 leaves) where a value belongs is refused as it stands, never expanded.
  std::string bomb = "a0: &a0 [x]\n";
  for (int level = 1; level <= 6; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    bomb += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [" + previous;
    for (int i = 1; i < 10; ++i) {
      bomb += ", " + previous;
    }
    bomb += "]\n";
  }
  CHECK_THAT(error_of([&] { apply_config_yaml(config, "logLevel: debug\n" + bomb, "bomb.yaml"); }),
             Catch::Contains("bomb.yaml:2: unknown key \"a0\""));
  // The same anchors inside one value: a list, refused without being walked.
  std::string value_bomb = "logLevel: [&a0 [x]";
  for (int level = 1; level <= 6; ++level) {
    value_bomb += ", &a" + std::to_string(level) + " [*a" + std::to_string(level - 1);
    for (int i = 1; i < 10; ++i) {
      value_bomb += ", *a" + std::to_string(level - 1);
    }
    value_bomb += "]";
  }
  value_bomb += "]\n";
  CHECK_THAT(error_of([&] { apply_config_yaml(config, value_bomb, "b.yaml"); }),
             Catch::Contains("b.yaml:1: logLevel: expected a single value"));
  const auto dir = std::filesystem::temp_directory_path();
  CHECK_THAT(error_of([&] {
               parse_command_line({"--config", dir.string()});
             }),
             Catch::Contains("--config: cannot read " + dir.string() + ": it is a directory"));
  // /dev/zero never ends: the read stops at the bound instead of hanging.
  CHECK_THAT(error_of([&] {
               parse_command_line({"--config", "/dev/zero"});
             }),
             Catch::Contains("/dev/zero is larger than 1048576 bytes"));
}

TEST_CASE("the snapshot limits are flags and keys like every setting", "[config]") {
  auto parsed = parse_command_line({"--max-snapshot-file-bytes", "1073741824", "--max-yaml-alias-nodes", "5000"});
  CHECK(parsed.config.max_snapshot_file_bytes == 1073741824ULL);
  CHECK(parsed.config.max_yaml_alias_nodes == 5000);
  daemon_config config;
  apply_config_yaml(config, "maxSnapshotFileBytes: 5000000000\n", "big.yaml");
  CHECK(config.max_snapshot_file_bytes == 5000000000ULL);
  CHECK_THROWS_AS(parse_command_line({"--max-snapshot-file-bytes", "0"}), config_error);
}
