#pragma once
// What a list request asks for beyond the whole list: a namespace, filters the views know
// (`state=` the state label, `queue=` the Local Queue of a Workload, `labelSelector=` equality
// terms), and a page (`limit`, `continue`). Parsed once, checked strictly (a bad value is a
// 400 that says what is wrong), then applied to a rendered list_model.
//
// A continue token names the list, the generation of the page it followed and the last key
// returned. The next page starts after that key in the list as it is then: like the API
// server's, objects present throughout are neither skipped nor repeated; objects added or
// removed behind the cursor are not seen. Computed pages (no object keys) continue by position.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/http_types.hpp"
#include "api/list_model.hpp"

namespace sextant {

struct label_term {
  enum class op { equals, not_equals, exists, not_exists };
  std::string key;
  op test = op::equals;
  std::string value;
};

struct list_query {
  std::optional<std::string> namespace_;
  std::optional<std::string> state;
  std::optional<std::string> queue;
  std::vector<label_term> selector;
  std::size_t limit = 0;             // 0: no limit
  std::optional<std::string> after;  // the key (or position) the previous page ended at
  bool paged = false;                // limit or continue given: the answer says where to go on

  bool filters() const { return namespace_ || state || queue || !selector.empty(); }
};

// The largest page; larger limits are refused rather than silently cut.
inline constexpr std::size_t max_list_limit = 10000;

// Parses an equality-based label selector ("a=b,c!=d,e,!f"); nullopt with `error` set when it
// is not one.
std::optional<std::vector<label_term>> parse_label_selector(const std::string& text, std::string& error);

// Parses the list parameters of `target` for `resource` (whose API path is `list_path`);
// returns the error message of a 400 when one is bad.
std::optional<std::string> parse_list_query(const parsed_target& target, const resource_def& resource,
                                            const std::string& list_path, list_query& query);

// One caller's cut of a list (--auth=kubernetes): the items it may see, and the sentence each
// joined entry it may not read is hidden behind (nullopt: shown).
struct list_cut {
  std::function<bool(const list_item&)> visible;
  std::function<std::optional<std::string>(const join_span&)> hidden;
  bool filtered = false;  // items were left out: the page says "filtered": true
};

// {"items": [...], "incomplete": ..., "incompleteReason": ...} and, for a paged request,
// "continue" (a token, or null on the last page) and "remainingItemCount"; cut for one caller
// when `cut` is given.
std::string render_list_page(const list_model& model, const list_query& query, const std::string& list_path,
                             const list_cut* cut = nullptr);

std::string continue_token(const std::string& list_path, std::uint64_t generation, const std::string& after);

}  // namespace sextant
