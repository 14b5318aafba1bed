#include "snapshot/snapshot_loader.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "ingest/json_decoder.hpp"
#include "snapshot/json_values.hpp"
#include "snapshot/yaml_documents.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "store/version_priority.hpp"

namespace sextant {
namespace {

int line_at(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// `kubectl cluster-info dump` writes pod logs between its JSON lists, each block framed by
// "==== START logs for ..." and "==== END logs for ..." lines. Blank them out (keeping the
// newlines, so line numbers still match the file) so the JSON around them parses.
std::string without_dump_logs(const std::string& text) {
  if (text.find("==== START logs for") == std::string::npos) {
    return text;
  }
  std::string out = text;
  std::size_t pos = 0;
  while ((pos = out.find("==== START logs for", pos)) != std::string::npos) {
    std::size_t end = out.find("==== END logs for", pos);
    end = end == std::string::npos ? out.size() : out.find('\n', end);
    if (end == std::string::npos) {
      end = out.size();
    }
    for (std::size_t i = pos; i < end; ++i) {
      if (out[i] != '\n') {
        out[i] = ' ';
      }
    }
    pos = end;
  }
  return out;
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

}  // namespace

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

snapshot_report snapshot_loader::load(const std::filesystem::path& root) {
  snapshot_report report;
  std::vector<std::filesystem::path> files;
  std::error_code error;
  if (std::filesystem::is_regular_file(root, error)) {
    files.push_back(root);
  } else if (std::filesystem::is_directory(root, error)) {
    for (auto it = std::filesystem::recursive_directory_iterator(
             root, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file()) {
        continue;
      }
      auto extension = it->path().extension().string();
      if (extension == ".yaml" || extension == ".yml" || extension == ".json") {
        files.push_back(it->path());
      }
    }
  } else {
    report.errors.push_back({root.string(), 0, "no such file or directory"});
    return report;
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      report.errors.push_back({file.string(), 0, "cannot be read"});
      ++report.files_skipped;
      continue;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    load_text(file.string(), buffer.str(), file.extension() == ".json", report);
  }
  return report;
}

void snapshot_loader::load_text(const std::string& path, const std::string& text, bool is_json,
                                snapshot_report& report) {
  const std::size_t errors_before = report.errors.size();
  const std::size_t objects_before = report.objects_loaded;
  const std::size_t warnings_before = report.warnings.size();
  if (is_json) {
    load_json(path, text, report);
  } else {
    load_yaml(path, text, report);
  }
  // A file counts as read when anything in it was: a broken document among good ones costs only
  // itself. It is skipped when nothing in it could be parsed.
  const std::size_t new_errors = report.errors.size() - errors_before;
  const bool nothing_parsed =
      new_errors > 0 && report.objects_loaded == objects_before && report.warnings.size() == warnings_before &&
      std::all_of(report.errors.begin() + static_cast<std::ptrdiff_t>(errors_before), report.errors.end(),
                  [](const load_problem& problem) { return problem.message.starts_with("cannot parse"); });
  if (nothing_parsed) {
    ++report.files_skipped;
  } else {
    ++report.files_read;
    report.documents_skipped += new_errors;
  }
}

void snapshot_loader::load_yaml(const std::string& path, const std::string& text, snapshot_report& report) {
  for (const yaml_document_text& piece : split_yaml_documents(text)) {
    YAML::Node document;
    try {
      document = YAML::Load(std::string(piece.text));
    } catch (const YAML::Exception& error) {
      report.errors.push_back(
          {path, piece.first_line + std::max(0, error.mark.line), "cannot parse YAML: " + error.msg});
      continue;
    }
    if (!document.IsDefined() || document.IsNull()) {
      continue;  // a document of nothing but "~" or "null"
    }
    int line = piece.first_line + std::max(0, document.Mark().line);
    try {
      add_document(yaml_to_json(document), path, line, report);
    } catch (const std::exception& error) {
      report.errors.push_back({path, line, std::string("cannot read document: ") + error.what()});
    }
  }
}

void snapshot_loader::load_json(const std::string& path, const std::string& raw, snapshot_report& report) {
  const std::string text = without_dump_logs(raw);
  json_decoder decoder(profiles_);
  for (const json_value_text& value : split_json_values(text)) {
    if (load_json_list(decoder, value.text, path, line_at(text, value.offset), report)) {
      continue;
    }
    auto decoded = decoder.decode_untyped(value.text);
    if (decoded.ok()) {
      add_document(std::move(*decoded.value), path, line_at(text, value.offset), report);
      continue;
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
    report.errors.push_back({path, line_at(text, at), "cannot parse JSON: " + detail});
  }
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
  if (auto earlier = store_.get(cached->type, cached->namespace_, cached->name)) {
    const std::string& earlier_path = origin_[identity];
    if (numeric_newer(earlier->resource_version, cached->resource_version)) {
      report.warnings.push_back({path, line,
                                 "duplicate " + identity + " (also in " + earlier_path +
                                     "); keeping the one there, its resourceVersion is newer"});
      return;
    }
    report.warnings.push_back(
        {path, line, "duplicate " + identity + " (also in " + earlier_path + "); keeping this one"});
  } else {
    ++report.objects_loaded;
    ++report.objects_by_kind[cached->type.to_string()];
  }
  origin_[identity] = path;
  if (cached->type == kind_key{"apiextensions.k8s.io", "CustomResourceDefinition"}) {
    register_crd(cached->body());
  }
  if (!served_.serves(cached->type)) {
    served_.add(
        served_kind{cached->type, {}, !cached->namespace_.empty(), {std::string(version_of(cached->api_version))}});
  } else {
    served_.add(served_kind{cached->type, {}, true, {std::string(version_of(cached->api_version))}});
  }
  store_.upsert(std::move(cached));
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
