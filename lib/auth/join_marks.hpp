#pragma once
// Joined objects in a rendered view, found once at render time so that each caller's answer is
// cut from the shared rendering rather than rendered again.
//
// A view joins another object wherever it writes that object's path (view_context::path_json,
// which every link and row of the toolkit goes through). While a view renders for the cache
// with marks on, the path is written with a mark naming the object's kind and namespace; the
// JSON object holding the path is the joined entry. `strip_join_marks` removes the marks from
// the rendered text and returns where each joined entry lies; `redact_joins` replaces the
// entries one caller may not read with {"hidden": "you may not read resourceclaims in team-b"}.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/object.hpp"
#include "util/json.hpp"

namespace sextant {

struct join_span {
  std::size_t begin = 0;  // the joined entry's '{' in the stripped text
  std::size_t end = 0;    // one past its '}'
  kind_key type;
  std::string namespace_;  // empty for a cluster-scoped kind
  friend bool operator==(const join_span&, const join_span&) = default;
};

// A path (a string, or null) marked as the path of an object of `type` in `namespace_`.
json join_marked_path(const kind_key& type, std::string_view namespace_, const json& path);

struct stripped_view {
  std::string text;
  std::vector<join_span> joins;  // in text order of their ends (inner entries before outer)
};
// The rendered JSON text without marks, and its joined entries. Text without marks comes back
// unchanged with no joins.
stripped_view strip_join_marks(std::string_view text);

// `text` with each joined entry for which `hidden` gives a sentence replaced by
// {"hidden": sentence}; an entry inside one replaced goes with it.
std::string redact_joins(std::string_view text, const std::vector<join_span>& joins,
                         const std::function<std::optional<std::string>(const join_span&)>& hidden);

}  // namespace sextant
