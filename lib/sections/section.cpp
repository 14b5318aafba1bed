#include "sections/section.hpp"

#include "auth/join_marks.hpp"
#include "sections/common/links.hpp"

namespace sextant {

json view_context::path_json(const kind_key& type, std::string_view namespace_, std::string_view name,
                             bool joined) const {
  json path = path_for ? or_null(path_for(type, namespace_, name)) : json(nullptr);
  return mark_joins && joined ? join_marked_path(type, namespace_, path) : path;
}

resource_def kind_resource(std::string plural, std::string title, kind_key type, scope where) {
  resource_def r;
  r.id = plural;
  r.plural = std::move(plural);
  r.title = std::move(title);
  r.type = std::move(type);
  r.namespaced = where == scope::namespaced;
  return r;
}

std::string view_context::api_version(const kind_key& type) const {
  std::string version;
  if (version_for) {
    version = version_for(type);
  } else if (const served_kind* kind = served.find(type)) {
    version = choose_version(*kind, {});
  }
  if (version.empty()) {
    version = "v1";
  }
  return type.group.empty() ? version : type.group + "/" + version;
}

const polled_document_entry* view_context::document(const document_key& key) const {
  if (documents == nullptr) {
    return nullptr;
  }
  documents->ask(key);
  if (reads != nullptr) {
    if (reads->documents.empty()) {
      reads->documents_generation = documents->generation();
    }
    reads->documents.insert(key);
  }
  return documents->find(key);
}

std::string view_context::document_missing_because(const document_key& key) const {
  return documents == nullptr ? std::string() : documents->missing_because(key);
}

void details_view::link(const view_context& context, std::string rel, std::string_view api_version,
                        const std::string& kind, std::string_view namespace_, std::string_view name) {
  kind_key type{std::string(group_of(api_version)), kind};
  json entry = {{"rel", std::move(rel)}};
  entry.update(link_json(context, type, api_version, namespace_, name));
  links.push_back(std::move(entry));
}

void details_view::link(const view_context& context, std::string rel, const cached_object& object) {
  link(context, std::move(rel), object.api_version, object.type.kind, object.namespace_, object.name);
}

}  // namespace sextant
