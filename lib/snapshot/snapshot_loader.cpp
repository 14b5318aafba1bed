// Over 400 lines because the loader is one resumable state machine (file, piece, document,
// object) whose steps share its members; splitting it would pass that state between files.
#include "snapshot/snapshot_loader.hpp"

#include <algorithm>
#include <sstream>
#include <streambuf>

#include <yaml-cpp/yaml.h>

#include "ingest/json_decoder.hpp"
#include "snapshot/json_values.hpp"
#include "snapshot/line_counter.hpp"
#include "snapshot/yaml_documents.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "store/version_priority.hpp"
#include "util/file.hpp"
#include "util/object_names.hpp"

namespace sextant {
namespace {

// `kubectl cluster-info dump` writes pod logs between its JSON lists, each block framed by
// "==== START logs for ..." and "==== END logs for ..." lines. Blank them out in place (keeping
// the newlines, so line numbers still match the file) so the JSON around them parses.
void blank_dump_logs(std::string& text) {
  std::size_t pos = 0;
  while ((pos = text.find("==== START logs for", pos)) != std::string::npos) {
    std::size_t end = text.find("==== END logs for", pos);
    end = end == std::string::npos ? text.size() : text.find('\n', end);
    if (end == std::string::npos) {
      end = text.size();
    }
    for (std::size_t i = pos; i < end; ++i) {
      if (text[i] != '\n') {
        text[i] = ' ';
      }
    }
    pos = end;
  }
}

bool numeric_newer(std::string_view a, std::string_view b) {
  // resourceVersions are opaque, but etcd's are integers: compare them as such when both are.
  auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(a) || !digits(b)) {
    return false;
  }
  return a.size() != b.size() ? a.size() > b.size() : a > b;
}

// A read-only stream over a document's bytes where they lie, so that yaml-cpp parses the file's
// own buffer instead of a copy of each document.
class view_buffer : public std::streambuf {
 public:
  explicit view_buffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // read only: streambuf's get area is not const
    setg(begin, begin, begin + text.size());
  }
};

YAML::Node parse_yaml_in_place(std::string_view text) {
  view_buffer buffer(text);
  std::istream in(&buffer);
  return YAML::Load(in);
}

}  // namespace

struct snapshot_loader::file_in_progress {
  std::string path;
  std::string text;  // the whole file, read once
  bool is_json = false;
  std::vector<yaml_document_text> documents;
  std::vector<json_value_text> values;
  std::size_t next = 0;
  line_counter lines;
  std::unique_ptr<json_decoder> decoder;
  // The report's counts when the file began: what the file added decides whether it was read.
  std::size_t errors_before = 0;
  std::size_t objects_before = 0;
  std::size_t warnings_before = 0;
};

std::string snapshot_report::summary() const {
  std::ostringstream out;
  out << "loaded " << objects_loaded << " object" << (objects_loaded == 1 ? "" : "s") << " from " << files_read
      << " file" << (files_read == 1 ? "" : "s");
  if (!objects_by_kind.empty()) {
    out << " (";
    bool first = true;
    for (const auto& [kind, count] : objects_by_kind) {
      out << (first ? "" : ", ") << count << ' ' << kind;
      first = false;
    }
    out << ')';
  }
  if (files_skipped > 0) {
    out << "; " << files_skipped << " file" << (files_skipped == 1 ? "" : "s") << " skipped";
  }
  if (documents_skipped > 0) {
    out << "; " << documents_skipped << " object" << (documents_skipped == 1 ? "" : "s") << " skipped";
  }
  return out.str();
}

snapshot_loader::snapshot_loader(object_store& store, served_kinds& served, const ingest_profiles& profiles,
                                 time_point now, snapshot_limits limits)
    : store_(store), served_(served), profiles_(profiles), now_(now), limits_(limits) {
  served_.set_inferred(true);
}

snapshot_loader::~snapshot_loader() = default;

snapshot_report snapshot_loader::load(const std::filesystem::path& root) {
  begin(root);
  while (!step(std::chrono::hours(1))) {
  }
  return take_report();
}

void snapshot_loader::begin(const std::filesystem::path& root) {
  report_ = snapshot_report{};
  file_.reset();
  snapshot_file_list listed = snapshot_files(root);
  files_ = std::move(listed.files);
  next_file_ = 0;
  for (load_problem& error : listed.errors) {
    report_.errors.push_back(std::move(error));
    ++report_.files_skipped;
  }
  for (load_problem& warning : listed.warnings) {
    report_.warnings.push_back(std::move(warning));
  }
}

bool snapshot_loader::step(std::chrono::steady_clock::duration budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  do {
    if (!file_ && !open_next_file()) {
      return true;
    }
    if (file_ && !load_next_piece(report_)) {
      file_.reset();
    }
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

snapshot_report snapshot_loader::take_report() {
  return std::exchange(report_, snapshot_report{});
}

bool snapshot_loader::open_next_file() {
  while (next_file_ < files_.size()) {
    const std::filesystem::path& file = files_[next_file_++];
    std::string error;
    std::optional<std::string> text = read_file(file, error, limits_.max_file_bytes);
    if (!text) {
      if (error.find("is larger than") != std::string::npos) {
        error += " (--max-snapshot-file-bytes)";
      }
      report_.errors.push_back({file.string(), 0, error});
      ++report_.files_skipped;
      continue;
    }
    start_file(file.string(), std::move(*text), file.extension() == ".json", report_);
    return true;
  }
  return false;
}

void snapshot_loader::load_text(const std::string& path, std::string text, bool is_json, snapshot_report& report) {
  std::unique_ptr<file_in_progress> outer = std::move(file_);
  start_file(path, std::move(text), is_json, report);
  while (load_next_piece(report)) {
  }
  file_ = std::move(outer);
}

void snapshot_loader::start_file(const std::string& path, std::string text, bool is_json, snapshot_report& report) {
  file_ = std::make_unique<file_in_progress>();
  file_in_progress& file = *file_;
  file.path = path;
  file.text = std::move(text);
  file.is_json = is_json;
  file.errors_before = report.errors.size();
  file.objects_before = report.objects_loaded;
  file.warnings_before = report.warnings.size();
  if (is_json) {
    blank_dump_logs(file.text);
    file.values = split_json_values(file.text);
    file.lines = line_counter(file.text);
    file.decoder = std::make_unique<json_decoder>(profiles_);
  } else {
    file.documents = split_yaml_documents(file.text);
  }
}

bool snapshot_loader::load_next_piece(snapshot_report& report) {
  file_in_progress& file = *file_;
  if (file.is_json && file.next < file.values.size()) {
    const json_value_text& value = file.values[file.next++];
    load_json_value(*file.decoder, file.lines, file.path, value, report);
    return true;
  }
  if (!file.is_json && file.next < file.documents.size()) {
    const yaml_document_text& document = file.documents[file.next++];
    load_yaml_document(file.path, document.text, document.first_line, report);
    return true;
  }
  finish_file(report);
  return false;
}

void snapshot_loader::finish_file(snapshot_report& report) {
  const file_in_progress& file = *file_;
  // A file counts as read when anything in it was: a broken document among good ones costs only
  // itself. It is skipped when nothing in it could be parsed.
  const std::size_t new_errors = report.errors.size() - file.errors_before;
  const bool nothing_parsed =
      new_errors > 0 && report.objects_loaded == file.objects_before &&
      report.warnings.size() == file.warnings_before &&
      std::all_of(report.errors.begin() + static_cast<std::ptrdiff_t>(file.errors_before), report.errors.end(),
                  [](const load_problem& problem) { return problem.message.starts_with("cannot parse"); });
  if (nothing_parsed) {
    ++report.files_skipped;
  } else {
    ++report.files_read;
    report.documents_skipped += new_errors;
  }
}

void snapshot_loader::load_yaml_document(const std::string& path, std::string_view text, int first_line,
                                         snapshot_report& report) {
  YAML::Node document;
  try {
    document = parse_yaml_in_place(text);
  } catch (const YAML::Exception& error) {
    report.errors.push_back({path, first_line + std::max(0, error.mark.line), "cannot parse YAML: " + error.msg});
    return;
  }
  if (!document.IsDefined() || document.IsNull()) {
    return;  // a document of nothing but "~" or "null"
  }
  int line = first_line + std::max(0, document.Mark().line);
  json converted;
  try {
    converted = yaml_to_json(document, yaml_node_budget(text.size(), limits_.yaml_alias_nodes));
  } catch (const yaml_expansion_error& error) {
    report.errors.push_back({path, line, std::string("cannot parse YAML: ") + error.what()});
    return;
  } catch (const std::exception& error) {
    report.errors.push_back({path, line, std::string("cannot read document: ") + error.what()});
    return;
  }
  try {
    add_document(std::move(converted), path, line, report);
  } catch (const std::exception& error) {
    report.errors.push_back({path, line, std::string("cannot read document: ") + error.what()});
  }
}

void snapshot_loader::load_json_value(json_decoder& decoder, line_counter& lines, const std::string& path,
                                      const json_value_text& value, snapshot_report& report) {
  const int line = lines.line_at(value.offset);
  if (load_json_list(decoder, value.text, path, line, report)) {
    return;
  }
  auto decoded = decoder.decode_untyped(value.text);
  if (decoded.ok()) {
    add_document(std::move(*decoded.value), path, line, report);
    return;
  }
  // simdjson says that the value breaks; nlohmann says at which byte.
  std::size_t at = value.offset;
  std::string detail = "not valid JSON";
  try {
    json ignored = json::parse(value.text);
    ignored.clear();
  } catch (const json::parse_error& error) {
    at = value.offset + (error.byte > 0 ? error.byte - 1 : 0);
    detail = error.what();
  } catch (const json::exception& error) {  // a number out of range, say: no byte given
    detail = error.what();
  }
  report.errors.push_back({path, lines.line_at(at), "cannot parse JSON: " + detail});
}

void snapshot_loader::add_document(json document, const std::string& path, int line, snapshot_report& report) {
  if (!document.is_object()) {
    report.errors.push_back({path, line, "not a Kubernetes object (a mapping with apiVersion and kind)"});
    return;
  }
  const std::string kind = string_or(document, {"kind"});
  auto items = document.find("items");
  if (kind.ends_with("List") && items != document.end()) {
    if (items->is_null()) {
      return;
    }
    if (!items->is_array()) {
      report.errors.push_back({path, line, kind + ": items is not a list"});
      return;
    }
    const std::string list_api_version = string_or(document, {"apiVersion"});
    const std::string item_kind = kind != "List" ? kind.substr(0, kind.size() - 4) : std::string();
    if (!item_kind.empty() && !list_api_version.empty()) {
      // The API server answered a list of this kind: it serves it, and these are all of them.
      kind_key item_type{std::string(group_of(list_api_version)), item_kind};
      report.kinds_listed.insert(item_type);
      if (!served_.serves(item_type)) {
        served_.add(served_kind{item_type, {}, true, {std::string(version_of(list_api_version))}});
      }
    }
    for (json& item : *items) {
      if (item.is_object()) {
        if (!item.contains("apiVersion") && !list_api_version.empty()) {
          item["apiVersion"] = list_api_version;
        }
        if (!item.contains("kind") && !item_kind.empty()) {
          item["kind"] = item_kind;
        }
      }
      add_object(std::move(item), path, line, report);
    }
    return;
  }
  add_object(std::move(document), path, line, report);
}

bool snapshot_loader::load_json_list(json_decoder& decoder, std::string_view text, const std::string& path, int line,
                                     snapshot_report& report) {
  std::optional<value_head> head = decoder.peek_head(text);
  if (!head || !head->has_items || !head->kind.ends_with("List")) {
    return false;
  }
  // A typed list (WorkloadList) is read with its items' profile masking while parsing, the
  // live path; a mixed `List` (kubectl get -o json) item by item by each one's kind.
  const bool typed = head->kind != "List" && !head->api_version.empty();
  auto decoded = typed ? decoder.decode_list(text, head->api_version, head->kind.substr(0, head->kind.size() - 4))
                       : decoder.decode_list(text);
  if (!decoded.ok()) {
    return false;
  }
  if (typed) {
    // The API server answered a list of this kind: it serves it, and these are all of them (an
    // empty ResourceClaimList says "no claims", not "claims not read").
    const std::string item_kind = head->kind.substr(0, head->kind.size() - 4);
    kind_key item_type{std::string(group_of(head->api_version)), item_kind};
    report.kinds_listed.insert(item_type);
    if (!served_.serves(item_type)) {
      served_.add(served_kind{item_type, {}, true, {std::string(version_of(head->api_version))}});
    }
  }
  for (packed_body& item : decoded.value->items) {
    add_packed(std::move(item), path, line, report);
  }
  return true;
}

void snapshot_loader::add_object(json object, const std::string& path, int line, snapshot_report& report) {
  kind_key type{std::string(group_of(string_or(object, {"apiVersion"}))), string_or(object, {"kind"})};
  packed_writer writer;
  add_packed(apply_profile(std::move(object), profiles_.for_kind(type), writer), path, line, report);
}

void snapshot_loader::add_packed(packed_body packed, const std::string& path, int line, snapshot_report& report) {
  std::string error;
  std::string what = string_or(packed.root(), {"kind"});
  object_ptr cached = make_object(std::move(packed), now_, &error);
  if (!cached) {
    what = what.empty() ? "an object" : what;
    report.errors.push_back({path, line, what + " skipped: " + error});
    return;
  }
  const std::string identity = cached->type.to_string() + " " + cached->key();
  const std::string shown = identity.size() > 300 ? identity.substr(0, 300) + "..." : identity;
  // A hand-made snapshot can hold names no API server stores. They load (the file is what the
  // user gave), but no route can name them, so their views carry no path.
  if (!cached->namespace_.empty() && !valid_namespace(cached->namespace_)) {
    report.warnings.push_back({path, line,
                               shown + ": the API server would refuse namespace \"" +
                                   std::string(cached->namespace_.substr(0, 100)) +
                                   "\" (lower-case letters, digits and '-', at most 63); loaded, without a path"});
  } else if (!name_the_api_server_accepts(cached->name)) {
    report.warnings.push_back({path, line, shown + ": the API server would refuse this name; loaded, without a path"});
  }
  if (origin_paths_.empty() || origin_paths_.back() != path) {
    origin_paths_.push_back(path);
  }
  const auto path_index = static_cast<std::uint32_t>(origin_paths_.size() - 1);
  if (auto earlier = store_.get(cached->type, cached->namespace_, cached->name)) {
    auto earlier_origin = origin_.find(earlier.get());
    static const std::string unknown_origin = "an earlier file";  // every object held came through here
    const std::string& earlier_path =
        earlier_origin != origin_.end() ? origin_paths_[earlier_origin->second] : unknown_origin;
    if (numeric_newer(earlier->resource_version, cached->resource_version)) {
      report.warnings.push_back({path, line,
                                 "duplicate " + identity + " (also in " + earlier_path +
                                     "); keeping the one there, its resourceVersion is newer"});
      return;
    }
    report.warnings.push_back(
        {path, line, "duplicate " + identity + " (also in " + earlier_path + "); keeping this one"});
    // Its entry goes with it, before its address can be reused by another object.
    origin_.erase(earlier.get());
  } else {
    ++report.objects_loaded;
    ++report.objects_by_kind[cached->type.to_string()];
  }
  if (cached->type == kind_key{"apiextensions.k8s.io", "CustomResourceDefinition"}) {
    register_crd(cached->body());
  }
  if (!served_.serves(cached->type)) {
    served_.add(
        served_kind{cached->type, {}, !cached->namespace_.empty(), {std::string(version_of(cached->api_version))}});
  } else {
    served_.add(served_kind{cached->type, {}, true, {std::string(version_of(cached->api_version))}});
  }
  const object_ptr loaded = cached;  // what the lookup below names lives in it
  store_.upsert(std::move(cached));
  // The store may hold a copy (one that keeps an earlier first_seen): its entry is the one kept.
  if (object_ptr stored = store_.get(loaded->type, loaded->namespace_, loaded->name)) {
    origin_[stored.get()] = path_index;
  }
}

void snapshot_loader::register_crd(const json& crd) {
  served_kind kind;
  kind.type = kind_key{string_or(crd, {"spec", "group"}), string_or(crd, {"spec", "names", "kind"})};
  kind.plural = string_or(crd, {"spec", "names", "plural"});
  kind.namespaced = string_or(crd, {"spec", "scope"}, "Namespaced") == "Namespaced";
  for (const json& version : array_or_empty(crd, {"spec", "versions"})) {
    if (get_bool(version, {"served"}).value_or(true)) {
      kind.versions.push_back(string_or(version, {"name"}));
    }
  }
  // The API server prefers versions by Kubernetes' priority (v1 > v1beta2 > v1beta1 ...), not
  // by their order in the CRD: snapshot mode must pick the same one a live cluster would.
  sort_by_version_priority(kind.versions);
  if (!kind.type.kind.empty()) {
    served_.add(std::move(kind));
  }
}

}  // namespace sextant
