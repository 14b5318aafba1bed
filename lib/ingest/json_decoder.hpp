#pragma once
// Decodes API-server JSON (objects, lists, watch events) with simdjson On-Demand straight into
// packed values (store/packed_value.hpp) of the fields each kind's profile keeps: fields a
// profile does not keep are skipped by the parser and never built. One decoder owns one reusable
// parser and writer; it lives on the event loop.
//
// Errors are values: a body that is not JSON, or an object without kind/name, yields an error
// string, never an exception to the caller.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "ingest/ingest_profile.hpp"
#include "store/packed_writer.hpp"
#include "util/json.hpp"

namespace sextant {

struct decoded_list {
  std::string api_version;  // of the list: "kueue.x-k8s.io/v1beta2"
  std::string kind;         // "WorkloadList"
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
  std::vector<packed_body> items;        // each with apiVersion and kind filled in
  std::vector<std::string> item_errors;  // items that could not be read, by index
};

struct decoded_watch_event {
  std::string type;    // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
  packed_body object;  // the object, or the Status of an ERROR event
};

template <typename T>
struct decode_result {
  std::optional<T> value;
  std::string error;  // set when value is empty
  bool ok() const { return value.has_value(); }
};

// The top of a JSON value: its apiVersion and kind, and whether it holds items (a `*List`).
struct value_head {
  std::string api_version;
  std::string kind;
  bool has_items = false;
};

class json_decoder {
 public:
  explicit json_decoder(const ingest_profiles& profiles) : profiles_(profiles) {}

  // One object. With `item_type` the kind's mask applies while parsing; without, the kind is
  // read from the object and the profile is applied after.
  decode_result<packed_body> decode_object(std::string_view text, const kind_key* item_type = nullptr);

  // Any JSON value, kept whole but for managedFields and last-applied-configuration: for
  // callers that apply profiles themselves (the snapshot loader).
  decode_result<json> decode_untyped(std::string_view text);

  // A `*List` body. `item_api_version`/`item_kind` fill items that omit them (typed lists from
  // the API server do); when `item_kind` is empty each item's own kind decides its profile.
  decode_result<decoded_list> decode_list(std::string_view text, std::string_view item_api_version = {},
                                          std::string_view item_kind = {});

  // The head of a value without building it (its items are skipped over): whether a snapshot
  // file holds a list that decode_list can read item by item. Nullopt when it is not an object.
  std::optional<value_head> peek_head(std::string_view text);

  // One line of a watch stream.
  decode_result<decoded_watch_event> decode_watch_event(std::string_view line, const kind_key& item_type);

  // The input bytes the decoder's buffers can hold without growing (its padded copy and the
  // parser's capacity), kept between decodes; what it keeps resident at least.
  std::size_t retained_capacity() const { return buffer_.capacity() + parser_.capacity(); }

 private:
  simdjson::padded_string_view pad(std::string_view text);
  // Both the padded copy and the parser keep the capacity of the largest document they were
  // given: after a 130 MB Workload list, 250 MB stayed resident for good (heaptrack, issue 11).
  // Each public decode ends in one of these, which frees them once a document was that large.
  class release_when_large {
   public:
    release_when_large(json_decoder& decoder, std::size_t document_bytes)
        : decoder_(decoder), document_bytes_(document_bytes) {}
    release_when_large(const release_when_large&) = delete;
    release_when_large& operator=(const release_when_large&) = delete;
    ~release_when_large();

   private:
    json_decoder& decoder_;
    std::size_t document_bytes_;
  };
  // Writes one object of a known kind through its profile: mask while parsing, then transform.
  packed_body typed_item(simdjson::ondemand::value value, const ingest_profile& profile,
                         std::string_view api_version = {}, std::string_view kind = {});

  const ingest_profiles& profiles_;
  simdjson::ondemand::parser parser_;
  std::string buffer_;  // input copied here with simdjson's padding
  packed_writer writer_;
};

}  // namespace sextant
