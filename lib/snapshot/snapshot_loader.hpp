#pragma once
// Loads a directory of Kubernetes objects into the store: snapshot mode.
//
// Reads every .yaml, .yml and .json file below the directory, in path order: single objects,
// multi-document YAML, `List`/`*List` objects (what `kubectl get -o yaml|json` writes) and
// `kubectl cluster-info dump` output (concatenated JSON lists with pod logs between them).
// A file that cannot be parsed is reported by path and line and skipped; an object that cannot
// be used (no kind, no name) is reported and skipped; the rest still loads. CRDs in the
// snapshot make their kinds served; so does any object of a kind.
//
// Files are outside input. Each is read once, into one buffer, and refused past a size limit;
// a YAML document may expand through its aliases only so far. The load runs a step at a time
// (a document or JSON value, then the time is checked), so the event loop can serve signals
// between steps: a SIGTERM during a long load is acted on.
#include <absl/container/flat_hash_map.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ingest/ingest_profile.hpp"
#include "ingest/json_decoder.hpp"
#include "snapshot/json_values.hpp"
#include "snapshot/line_counter.hpp"
#include "snapshot/snapshot_files.hpp"
#include "store/object_store.hpp"
#include "store/served_kinds.hpp"

namespace sextant {

struct snapshot_report {
  std::size_t files_read = 0;
  std::size_t files_skipped = 0;      // files of which nothing could be parsed
  std::size_t documents_skipped = 0;  // documents and objects skipped in files read
  std::size_t objects_loaded = 0;
  std::map<std::string, std::size_t> objects_by_kind;  // "Workload.kueue.x-k8s.io" -> 12
  std::vector<load_problem> errors;                    // files or objects not loaded
  std::vector<load_problem> warnings;                  // duplicates and the like: loaded, but worth saying
  // Kinds of which the snapshot holds a typed List (`ResourceClaimList`), even an empty one:
  // read, so "none" is known, where a kind with neither objects nor a List was not read.
  std::set<kind_key> kinds_listed;

  // "loaded 42 objects from 7 files (3 Node, 12 Pod, ...); 1 file skipped"
  std::string summary() const;
};

struct snapshot_limits {
  // A larger file is reported and skipped (--max-snapshot-file-bytes).
  std::uint64_t max_file_bytes = std::uint64_t{256} << 20;
  // Nodes a YAML document may add through aliases beyond its own size (--max-yaml-alias-nodes).
  std::size_t yaml_alias_nodes = 100000;
};

class snapshot_loader {
 public:
  snapshot_loader(object_store& store, served_kinds& served, const ingest_profiles& profiles, time_point now,
                  snapshot_limits limits = {});
  ~snapshot_loader();

  // Loads a directory (recursively) or a single file in one go.
  snapshot_report load(const std::filesystem::path& root);
  // The same a step at a time: begin, then step until it returns true, then take the report.
  void begin(const std::filesystem::path& root);
  bool step(std::chrono::steady_clock::duration budget);
  snapshot_report take_report();
  // How many files the load under way reads.
  std::size_t files_to_read() const { return files_.size(); }

  // Loads one file's text; `path` names it in reports. Exposed for tests and fuzzing.
  void load_text(const std::string& path, std::string text, bool is_json, snapshot_report& report);

 private:
  struct file_in_progress;

  // Opens the next file; false when there is none left.
  bool open_next_file();
  void start_file(const std::string& path, std::string text, bool is_json, snapshot_report& report);
  // Loads the file's next document or value; false when it had none left (and is closed).
  bool load_next_piece(snapshot_report& report);
  void finish_file(snapshot_report& report);

  void load_yaml_document(const std::string& path, std::string_view text, int first_line, snapshot_report& report);
  void load_json_value(json_decoder& decoder, line_counter& lines, const std::string& path,
                       const json_value_text& value, snapshot_report& report);
  void add_document(json document, const std::string& path, int line, snapshot_report& report);
  void add_object(json object, const std::string& path, int line, snapshot_report& report);
  void add_packed(packed_body packed, const std::string& path, int line, snapshot_report& report);
  // A `*List` value read item by item through the profiles, as a live list is; false when it
  // is not one or does not decode (the caller then reads it whole and reports where it breaks).
  bool load_json_list(json_decoder& decoder, std::string_view text, const std::string& path, int line,
                      snapshot_report& report);
  void register_crd(const json& crd);

  object_store& store_;
  served_kinds& served_;
  const ingest_profiles& profiles_;
  time_point now_;
  snapshot_limits limits_;
  // Where each object the store holds came from (an index into origin_paths_), to name both
  // places of a duplicate. Keyed by the stored object, not by its name: a map of names to paths
  // cost 224 bytes an object, allocated between the cached bodies and freed with the loader, and
  // at 150 000 Pods those 42 MB of holes stayed resident for good.
  absl::flat_hash_map<const cached_object*, std::uint32_t> origin_;
  std::vector<std::string> origin_paths_;
  // A load under way (begin .. take_report).
  snapshot_report report_;
  std::vector<std::filesystem::path> files_;
  std::size_t next_file_ = 0;
  std::unique_ptr<file_in_progress> file_;
};

}  // namespace sextant
