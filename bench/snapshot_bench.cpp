// Snapshot load time of one file of many concatenated objects, JSON against YAML (issue 32: the
// JSON loader counted each value's line from the file's start, 46 s for 50 000 objects against
// 1.4 s as YAML). Usage: snapshot_bench [objects]   (default 50 000)
#include <chrono>
#include <cstdio>
#include <string>

#include "snapshot/snapshot_loader.hpp"

using namespace sextant;

namespace {

double load_seconds(const std::string& name, std::string text, bool is_json, std::size_t expected) {
  ingest_profiles profiles;
  object_store store;
  served_kinds served;
  snapshot_loader loader(store, served, profiles, time_point{});
  snapshot_report report;
  const auto started = std::chrono::steady_clock::now();
  loader.load_text(name, std::move(text), is_json, report);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (report.objects_loaded != expected || !report.errors.empty()) {
    std::fprintf(stderr, "%s: loaded %zu of %zu objects, %zu errors\n", name.c_str(), report.objects_loaded, expected,
                 report.errors.size());
  }
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t objects = argc > 1 ? std::stoul(argv[1]) : 50000;
  std::string json_text;
  std::string yaml_text;
  for (std::size_t i = 0; i < objects; ++i) {
    const std::string name = "m" + std::to_string(i);
    json_text += "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n \"metadata\": {\"name\": \"" + name +
                 "\", \"namespace\": \"ml\"},\n \"data\": {\"a\": \"b\"}}\n";
    yaml_text += "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: ml}\ndata: {a: b}\n---\n";
  }
  const double json_seconds = load_seconds("concatenated.json", json_text, true, objects);
  const double yaml_seconds = load_seconds("documents.yaml", yaml_text, false, objects);
  std::printf("%zu objects: JSON %.2f s (%.1f MB), YAML %.2f s (%.1f MB)\n", objects, json_seconds,
              static_cast<double>(json_text.size()) / 1e6, yaml_seconds, static_cast<double>(yaml_text.size()) / 1e6);
  return 0;
}
