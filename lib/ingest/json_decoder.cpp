#include "ingest/json_decoder.hpp"

#include <cstring>

namespace sextant {
namespace od = simdjson::ondemand;

namespace {

// Where a value sits, for the drops that apply to every kind.
enum class place { root, metadata, annotations, other };

// The mask for member `key` of an object at `where`, and where the member sits; a null mask
// when the member is not kept, so the parser skips its value unread.
struct member_rule {
  const field_mask* mask;
  place where;
};

// Deeper than any Kubernetes object nests, and shallow enough that the recursive descent below
// stays far from the end of the stack: a document nested deeper is refused, not followed.
constexpr int max_nesting = 512;

int deeper(int depth) {
  if (depth >= max_nesting) {
    throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
  }
  return depth + 1;
}

member_rule rule_for(std::string_view key, const field_mask& mask, place where) {
  if ((where == place::metadata && dropped_metadata_member(key)) ||
      (where == place::annotations && dropped_annotation(key))) {
    return {nullptr, place::other};
  }
  place next = place::other;
  if (where == place::root && key == "metadata") {
    next = place::metadata;
  } else if (where == place::metadata && key == "annotations") {
    next = place::annotations;
  }
  return {mask.child(key), next};
}

json convert(od::value value, const field_mask& mask, place where, int depth = 0);

json convert_object(od::object object, const field_mask& mask, place where, int depth) {
  json out = json::object();
  for (auto field : object) {
    std::string_view key = field.unescaped_key().value();
    const member_rule rule = rule_for(key, mask, where);
    if (rule.mask == nullptr) {
      continue;
    }
    // Straight onto the member vector: the API server writes no duplicate keys, so the
    // linear duplicate search of ordered_json's operator[] is wasted work here.
    out.get_ref<json::object_t&>().emplace_back(std::string(key),
                                                convert(field.value().value(), *rule.mask, rule.where, deeper(depth)));
  }
  return out;
}

json convert(od::value value, const field_mask& mask, place where, int depth) {
  switch (value.type().value()) {
    case od::json_type::object:
      return convert_object(value.get_object().value(), mask, where, depth);
    case od::json_type::array: {
      json out = json::array();
      for (auto element : value.get_array()) {
        out.push_back(convert(element.value(), mask, place::other, deeper(depth)));
      }
      return out;
    }
    case od::json_type::string:
      return json(std::string(value.get_string().value()));
    case od::json_type::boolean:
      return json(value.get_bool().value());
    case od::json_type::null:
      // is_null() consumes the value; a null literal always answers true here.
      (void)value.is_null();
      return json(nullptr);
    case od::json_type::number: {
      switch (value.get_number_type().value()) {
        case od::number_type::signed_integer:
          return json(value.get_int64().value());
        case od::number_type::unsigned_integer:
          return json(value.get_uint64().value());
        default:
          return json(value.get_double().value());
      }
    }
  }
  return json(nullptr);
}

// The packed twin of convert(): writes the kept fields straight into `out`. At the root,
// `api_version` and `kind` fill what the object leaves out (typed lists' items do).
void write_value(od::value value, const field_mask& mask, place where, packed_writer& out, int depth = 0);

void write_object(od::object object, const field_mask& mask, place where, packed_writer& out, int depth,
                  std::string_view api_version = {}, std::string_view kind = {}) {
  out.begin_object();
  bool has_api_version = false;
  bool has_kind = false;
  for (auto field : object) {
    std::string_view key = field.unescaped_key().value();
    const member_rule rule = rule_for(key, mask, where);
    if (rule.mask == nullptr) {
      continue;
    }
    if (where == place::root) {
      has_api_version = has_api_version || key == "apiVersion";
      has_kind = has_kind || key == "kind";
    }
    out.key(key);
    write_value(field.value().value(), *rule.mask, rule.where, out, deeper(depth));
  }
  if (!has_api_version && !api_version.empty()) {
    out.key("apiVersion");
    out.string(api_version);
  }
  if (!has_kind && !kind.empty()) {
    out.key("kind");
    out.string(kind);
  }
  out.end_object();
}

void write_value(od::value value, const field_mask& mask, place where, packed_writer& out, int depth) {
  switch (value.type().value()) {
    case od::json_type::object:
      write_object(value.get_object().value(), mask, where, out, depth);
      return;
    case od::json_type::array:
      out.begin_array();
      for (auto element : value.get_array()) {
        write_value(element.value(), mask, place::other, out, deeper(depth));
      }
      out.end_array();
      return;
    case od::json_type::string:
      out.string(value.get_string().value());
      return;
    case od::json_type::boolean:
      out.boolean(value.get_bool().value());
      return;
    case od::json_type::null:
      (void)value.is_null();  // consumes the literal
      out.null();
      return;
    case od::json_type::number:
      switch (value.get_number_type().value()) {
        case od::number_type::signed_integer:
          out.signed_integer(value.get_int64().value());
          return;
        case od::number_type::unsigned_integer:
          out.unsigned_integer(value.get_uint64().value());
          return;
        default:
          out.number(value.get_double().value());
          return;
      }
  }
  out.null();
}

void fill_type(json& item, std::string_view api_version, std::string_view kind) {
  if (!item.is_object()) {
    return;
  }
  if (!api_version.empty() && !item.contains("apiVersion")) {
    item["apiVersion"] = std::string(api_version);
  }
  if (!kind.empty() && !item.contains("kind")) {
    item["kind"] = std::string(kind);
  }
}

kind_key type_of(const json& item) {
  return kind_key{std::string(group_of(string_or(item, {"apiVersion"}))), string_or(item, {"kind"})};
}

}  // namespace

// Documents up to this size keep their buffers between decodes: every watch event and single
// object, most lists. Larger ones are rare (a relist of thousands) and reallocating is cheap next
// to parsing them.
constexpr std::size_t kept_buffer_bytes = std::size_t{4} << 20;

json_decoder::release_when_large::~release_when_large() {
  if (document_bytes_ > kept_buffer_bytes) {
    std::string().swap(decoder_.buffer_);  // assigning an empty string would keep the capacity
    decoder_.parser_ = simdjson::ondemand::parser();
  }
}

simdjson::padded_string_view json_decoder::pad(std::string_view text) {
  buffer_.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  buffer_.assign(text.data(), text.size());
  return simdjson::padded_string_view(buffer_.data(), buffer_.size(), buffer_.capacity());
}

packed_body json_decoder::typed_item(od::value value, const ingest_profile& profile, std::string_view api_version,
                                     std::string_view kind) {
  if (value.type().value() == od::json_type::object) {
    write_object(value.get_object().value(), profile.mask, place::root, writer_, 0, api_version, kind);
  } else {
    write_value(value, profile.mask, place::root, writer_);
  }
  return apply_transform(writer_.finish(), profile, writer_);
}

decode_result<packed_body> json_decoder::decode_object(std::string_view text, const kind_key* item_type) {
  release_when_large release(*this, text.size());
  try {
    writer_.reset();
    od::document document = parser_.iterate(pad(text)).value();
    od::value root = document.get_value().value();
    if (item_type != nullptr) {
      return {typed_item(root, profiles_.for_kind(*item_type)), {}};
    }
    json object = convert(root, field_mask::everything(), place::root);
    const ingest_profile& profile = profiles_.for_kind(type_of(object));
    return {apply_profile(std::move(object), profile, writer_), {}};
  } catch (const simdjson::simdjson_error& error) {
    return {std::nullopt, std::string("invalid JSON: ") + error.what()};
  }
}

decode_result<json> json_decoder::decode_untyped(std::string_view text) {
  release_when_large release(*this, text.size());
  try {
    od::document document = parser_.iterate(pad(text)).value();
    json value = convert(document.get_value().value(), field_mask::everything(), place::root);
    return {std::move(value), {}};
  } catch (const simdjson::simdjson_error& error) {
    return {std::nullopt, std::string("invalid JSON: ") + error.what()};
  }
}

decode_result<decoded_list> json_decoder::decode_list(std::string_view text, std::string_view item_api_version,
                                                      std::string_view item_kind) {
  release_when_large release(*this, text.size());
  try {
    writer_.reset();
    auto document = parser_.iterate(pad(text));
    decoded_list list;
    std::vector<json> untyped_items;
    const ingest_profile* typed_profile = nullptr;
    if (!item_kind.empty()) {
      typed_profile = &profiles_.for_kind(kind_key{std::string(group_of(item_api_version)), std::string(item_kind)});
    }
    for (auto field : document.get_object()) {
      std::string_view key = field.unescaped_key().value();
      if (key == "apiVersion") {
        list.api_version = std::string(field.value().get_string().value());
      } else if (key == "kind") {
        list.kind = std::string(field.value().get_string().value());
      } else if (key == "metadata") {
        for (auto meta : field.value().get_object()) {
          std::string_view meta_key = meta.unescaped_key().value();
          if (meta_key == "resourceVersion") {
            list.resource_version = std::string(meta.value().get_string().value());
          } else if (meta_key == "continue") {
            list.continue_token = std::string(meta.value().get_string().value());
          } else if (meta_key == "remainingItemCount") {
            list.remaining_item_count = meta.value().get_int64().value();
          }
        }
      } else if (key == "items") {
        od::value items = field.value().value();
        if (items.is_null()) {
          continue;  // an empty list may say "items": null
        }
        for (auto element : items.get_array()) {
          if (typed_profile != nullptr) {
            list.items.push_back(typed_item(element.value(), *typed_profile, item_api_version, item_kind));
          } else {
            untyped_items.push_back(convert(element.value(), field_mask::everything(), place::root));
          }
        }
      }
    }
    if (typed_profile == nullptr) {
      // Untyped list: items name their own kind, or take it from the list's ("PodList" -> "Pod").
      std::string kind_from_list;
      if (list.kind.size() > 4 && list.kind.ends_with("List") && list.kind != "List") {
        kind_from_list = list.kind.substr(0, list.kind.size() - 4);
      }
      for (json& item : untyped_items) {
        fill_type(item, list.api_version, kind_from_list);
        const ingest_profile& profile = profiles_.for_kind(type_of(item));
        list.items.push_back(apply_profile(std::move(item), profile, writer_));
      }
    }
    return {std::move(list), {}};
  } catch (const simdjson::simdjson_error& error) {
    return {std::nullopt, std::string("invalid JSON list: ") + error.what()};
  }
}

std::optional<value_head> json_decoder::peek_head(std::string_view text) {
  release_when_large release(*this, text.size());
  try {
    auto document = parser_.iterate(pad(text));
    value_head head;
    for (auto field : document.get_object()) {
      std::string_view key = field.unescaped_key().value();
      if (key == "apiVersion") {
        head.api_version = std::string(field.value().get_string().value());
      } else if (key == "kind") {
        head.kind = std::string(field.value().get_string().value());
      } else if (key == "items") {
        head.has_items = true;
      }
    }
    return head;
  } catch (const simdjson::simdjson_error&) {
    return std::nullopt;
  }
}

decode_result<decoded_watch_event> json_decoder::decode_watch_event(std::string_view line, const kind_key& item_type) {
  release_when_large release(*this, line.size());
  try {
    writer_.reset();
    auto document = parser_.iterate(pad(line));
    decoded_watch_event event;
    const ingest_profile& profile = profiles_.for_kind(item_type);
    bool have_object = false;
    od::object root = document.get_object().value();
    // The API server writes "type" before "object"; an ERROR carries a Status, kept whole.
    for (auto field : root) {
      std::string_view key = field.unescaped_key().value();
      if (key == "type") {
        event.type = std::string(field.value().get_string().value());
      } else if (key == "object") {
        const bool whole = event.type == "ERROR" || event.type == "BOOKMARK";
        if (whole) {
          write_value(field.value().value(), field_mask::everything(), place::root, writer_);
          event.object = writer_.finish();
        } else {
          event.object = typed_item(field.value().value(), profile);
        }
        have_object = true;
      }
    }
    if (event.type.empty() || !have_object) {
      return {std::nullopt, "watch event without type or object"};
    }
    return {std::move(event), {}};
  } catch (const simdjson::simdjson_error& error) {
    return {std::nullopt, std::string("invalid watch event: ") + error.what()};
  }
}

}  // namespace sextant
