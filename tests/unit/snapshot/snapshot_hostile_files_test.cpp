// Snapshot files are outside input (issue 32): a YAML alias bomb, a symbolic link that loops, an
// unreadable directory or file, a file past the size limit, a FIFO, names no API server stores.
// Each is said, with its reason, and the rest of the snapshot loads.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "app/section_catalog.hpp"
#include "sections/registry.hpp"
#include "snapshot/line_counter.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

namespace fs = std::filesystem;

struct loader_fixture {
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_loader loader;

  explicit loader_fixture(snapshot_limits limits = {})
      : loader(store, served, profiles, testing::at("2026-11-29T12:00:00Z"), limits) {}
};

fs::path scratch_dir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("sextant-hostile-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0755);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

const char* node_yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";

// `levels` anchors, each a list of ten aliases of the one before: 10^levels leaves.
std::string alias_bomb(int levels) {
  std::string text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb, namespace: ml}\ndata:\n  a0: &a0 [x]\n";
  for (int level = 1; level <= levels; ++level) {
    std::string previous = "*a" + std::to_string(level - 1);
    text += "  a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) {
      text += (i == 0 ? "" : ", ") + previous;
    }
    text += "]\n";
  }
  return text;
}

bool has_problem(const std::vector<load_problem>& problems, const std::string& path_end, const std::string& words) {
  return std::any_of(problems.begin(), problems.end(), [&](const load_problem& problem) {
    return problem.path.ends_with(path_end) && problem.message.find(words) != std::string::npos;
  });
}

std::string listed(const std::vector<load_problem>& problems) {
  std::string out;
  for (const load_problem& problem : problems) {
    out += problem.path + ":" + std::to_string(problem.line) + ": " + problem.message + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("a YAML alias bomb is refused with an error naming the file, and the documents around it load",
          "[loader][hostile]") {
  auto dir = scratch_dir("alias-bomb");
  // A million leaves from 300 bytes; the issue's 524-byte one passed 3 GB in 5 s.
  write(dir / "bomb.yaml",
        std::string(node_yaml) + "---\n" + alias_bomb(6) + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\n");
  loader_fixture f;
  snapshot_report report = f.loader.load(dir);
  INFO(listed(report.errors));
  CHECK(has_problem(report.errors, "bomb.yaml", "aliases expand to more nodes than allowed (--max-yaml-alias-nodes)"));
  CHECK(report.errors.size() == 1);
  CHECK(report.objects_loaded == 2);
  CHECK_FALSE(f.store.get({"", "ConfigMap"}, "ml", "bomb"));

  // A few aliases, as a hand-written file uses them, are fine.
  loader_fixture small;
  snapshot_report few;
  small.loader.load_text("few.yaml", alias_bomb(2), false, few);
  CHECK(few.errors.empty());
  CHECK(small.store.get({"", "ConfigMap"}, "ml", "bomb"));
  fs::remove_all(dir);
}

TEST_CASE("an alias inside its own anchor is refused, not followed round for ever", "[loader][hostile]") {
  // yaml-cpp makes `&a [*a]` a list that holds itself: converted naively, it recursed until the
  // stack overflowed (found by fuzz_snapshot_yaml). Legitimate documents never nest this deep.
  loader_fixture f;
  snapshot_report report;
  f.loader.load_text("loop.yaml",
                     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop, namespace: ml}\ndata:\n  a: &a [x, *a]\n"
                     "---\n" +
                         std::string(node_yaml),
                     false, report);
  INFO(listed(report.errors));
  CHECK(has_problem(report.errors, "loop.yaml", "nests deeper than"));
  CHECK(report.objects_loaded == 1);
  CHECK_FALSE(f.store.get({"", "ConfigMap"}, "ml", "loop"));
}

TEST_CASE("a symbolic link that loops or points nowhere is reported, and the load goes on", "[loader][hostile]") {
  auto dir = scratch_dir("links");
  write(dir / "a-node.yaml", node_yaml);
  fs::create_symlink("loop.yaml", dir / "loop.yaml");
  fs::create_symlink("nowhere.yaml", dir / "dangling.yaml");
  fs::create_directories(dir / "sub");
  fs::create_directory_symlink("..", dir / "sub" / "up");  // a directory loop, not followed
  write(dir / "sub" / "z-node.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n9}\n");
  loader_fixture f;
  snapshot_report report = f.loader.load(dir);
  INFO(listed(report.errors) + listed(report.warnings));
  CHECK(has_problem(report.errors, "loop.yaml", "Too many levels of symbolic links"));
  CHECK(has_problem(report.errors, "dangling.yaml", "No such file or directory"));
  CHECK(has_problem(report.warnings, "sub/up", "a link to a directory: not followed"));
  CHECK(report.objects_loaded == 2);
  fs::remove_all(dir);
}

TEST_CASE("an unreadable directory or file is reported with the reason", "[loader][hostile]") {
  auto dir = scratch_dir("unreadable");
  write(dir / "a-node.yaml", node_yaml);
  write(dir / "locked" / "inside.yaml", node_yaml);
  write(dir / "secret.yaml", node_yaml);
  ::chmod((dir / "locked").c_str(), 0);
  ::chmod((dir / "secret.yaml").c_str(), 0);
  // Root reads everything: check as an unprivileged user, in a child that says what it saw.
  int channel[2];
  REQUIRE(::pipe(channel) == 0);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(channel[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) {
      ::_exit(3);
    }
    loader_fixture f;
    snapshot_report report = f.loader.load(dir);
    std::string seen = listed(report.errors) + "loaded " + std::to_string(report.objects_loaded) + "\n";
    (void)!::write(channel[1], seen.data(), seen.size());
    ::_exit(0);
  }
  ::close(channel[1]);
  std::string seen;
  char buffer[4096];
  for (ssize_t got; (got = ::read(channel[0], buffer, sizeof buffer)) > 0;) {
    seen.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(channel[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::chmod((dir / "locked").c_str(), 0755);
  INFO(seen);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK_THAT(seen, Catch::Contains("locked:0: directory cannot be read: Permission denied"));
  CHECK_THAT(seen, Catch::Contains("secret.yaml:0: cannot read ") && Catch::Contains("secret.yaml: Permission denied"));
  CHECK_THAT(seen, Catch::Contains("loaded 1\n"));
  fs::remove_all(dir);
}

TEST_CASE("a file past the size limit is refused unread, naming the limit's flag", "[loader][hostile]") {
  auto dir = scratch_dir("large");
  write(dir / "a-node.yaml", node_yaml);
  write(dir / "large.json", std::string(4096, ' ') + "{}");
  snapshot_limits limits;
  limits.max_file_bytes = 1000;
  loader_fixture f(limits);
  snapshot_report report = f.loader.load(dir);
  INFO(listed(report.errors));
  CHECK(has_problem(report.errors, "large.json", "is larger than 1000 bytes (--max-snapshot-file-bytes)"));
  CHECK(report.files_skipped == 1);
  CHECK(report.objects_loaded == 1);
  fs::remove_all(dir);
}

TEST_CASE("a FIFO or device named like a snapshot file is not read (it would never end)", "[loader][hostile]") {
  auto dir = scratch_dir("fifo");
  write(dir / "a-node.yaml", node_yaml);
  REQUIRE(::mkfifo((dir / "pipe.yaml").c_str(), 0644) == 0);
  loader_fixture f;
  snapshot_report report = f.loader.load(dir);
  CHECK(has_problem(report.errors, "pipe.yaml", "not a regular file"));
  CHECK(report.objects_loaded == 1);

  loader_fixture device;
  snapshot_report zero = device.loader.load("/dev/zero");
  CHECK(has_problem(zero.errors, "/dev/zero", "neither a directory nor a regular file"));
  fs::remove_all(dir);
}

TEST_CASE("names no API server would store load with a warning, and their views name no path", "[loader][hostile]") {
  loader_fixture f;
  snapshot_report report;
  f.loader.load_text("names.yaml", R"(
apiVersion: v1
kind: Pod
metadata: {name: fine, namespace: Bad_Namespace}
---
apiVersion: v1
kind: Pod
metadata: {name: "100%", namespace: ml}
---
apiVersion: v1
kind: Pod
metadata: {name: "..", namespace: ml}
---
apiVersion: v1
kind: Pod
metadata: {name: good, namespace: ml}
)",
                     false, report);
  INFO(listed(report.warnings));
  CHECK(report.objects_loaded == 4);
  CHECK(report.warnings.size() == 3);
  CHECK(has_problem(report.warnings, "names.yaml", "would refuse namespace \"Bad_Namespace\""));
  CHECK(has_problem(report.warnings, "names.yaml", "Pod ml/100%: the API server would refuse this name"));

  section_catalog catalog(all_sections());
  kind_key pod{"", "Pod"};
  CHECK(catalog.path_for(pod, "ml", "good", f.served) == "/api/v1/core/pods/ml/good");
  CHECK_FALSE(catalog.path_for(pod, "Bad_Namespace", "fine", f.served));
  CHECK_FALSE(catalog.path_for(pod, "ml", "100%", f.served));
  CHECK_FALSE(catalog.path_for(pod, "ml", "..", f.served));
}

TEST_CASE("JSON line numbers are counted once over a file, not from its start for each value", "[loader][hostile]") {
  std::string text;
  std::vector<std::size_t> offsets;
  for (int i = 0; i < 20000; ++i) {
    offsets.push_back(text.size());
    text += "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n \"metadata\": {\"name\": \"m" + std::to_string(i) +
            "\", \"namespace\": \"ml\"}}\n";
  }
  line_counter lines(text);
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    REQUIRE(lines.line_at(offsets[i]) == static_cast<int>(2 * i + 1));
  }
  CHECK(lines.bytes_scanned() <= text.size());
  // A broken value at the end is named by its own line.
  loader_fixture f;
  snapshot_report report;
  f.loader.load_text("many.json", text + "{\"kind\": }\n", true, report);
  CHECK(report.objects_loaded == 20000);
  REQUIRE(report.errors.size() == 1);
  CHECK(report.errors[0].line == 40001);
}
