#pragma once
// Loads a directory of Kubernetes objects into the store: snapshot mode.
//
// Reads every .yaml, .yml and .json file below the directory, in path order: single objects,
// multi-document YAML, `List`/`*List` objects (what `kubectl get -o yaml|json` writes) and
// `kubectl cluster-info dump` output (concatenated JSON lists with pod logs between them).
// A file that cannot be parsed is reported by path and line and skipped; an object that cannot
// be used (no kind, no name) is reported and skipped; the rest still loads. CRDs in the
// snapshot make their kinds served; so does any object of a kind.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ingest/ingest_profile.hpp"
#include "ingest/json_decoder.hpp"
#include "store/object_store.hpp"
#include "store/served_kinds.hpp"

namespace sextant {

struct load_problem {
  std::string path;
  int line = 0;  // 1-based; 0 when unknown
  std::string message;
};

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

class snapshot_loader {
 public:
  snapshot_loader(object_store& store, served_kinds& served, const ingest_profiles& profiles, time_point now)
      : store_(store), served_(served), profiles_(profiles), now_(now) {
    served_.set_inferred(true);
  }

  // Loads a directory (recursively) or a single file.
  snapshot_report load(const std::filesystem::path& root);
  // Loads one file's text; `path` names it in reports. Exposed for tests and fuzzing.
  void load_text(const std::string& path, const std::string& text, bool is_json, snapshot_report& report);

 private:
  void load_yaml(const std::string& path, const std::string& text, snapshot_report& report);
  void load_json(const std::string& path, const std::string& text, snapshot_report& report);
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
  // Where each object came from, to name both places of a duplicate.
  std::map<std::string, std::string> origin_;
};

}  // namespace sextant
