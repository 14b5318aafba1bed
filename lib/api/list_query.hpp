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
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/http_types.hpp"
#include "api/list_model.hpp"
#include "auth/caller_cuts.hpp"
#include "runtime/request_limits.hpp"

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

// Parses an equality-based label selector ("a=b,c!=d,e,!f") of at most `max_terms` terms;
// nullopt with `error` set when it is not one.
std::optional<std::vector<label_term>> parse_label_selector(
    const std::string& text, std::string& error, std::size_t max_terms = request_limits{}.max_selector_terms);

// Parses the list parameters of `target` for `resource` (whose API path is `list_path`);
// returns the error message of a 400 when one is bad.
std::optional<std::string> parse_list_query(const parsed_target& target, const resource_def& resource,
                                            const std::string& list_path, list_query& query,
                                            const request_limits& limits = {});

// {"items": [...], "incomplete": ..., "incompleteReason": ...} and, for a paged request,
// "continue" (a token, or null on the last page) and, where it is known without reading the
// rest of the list, "remainingItemCount". As the API server leaves it out of a list filtered by
// a label or field selector, it is left out of a page filtered by labelSelector, or by both state
// and queue; a namespace, a state or a queue alone is counted from the model's runs and positions.
//
// Rendered in slices, as lists are: each `step` does about `budget` of work, so a page cut from
// a 5 000-item list by a 20-term selector never holds the event loop.
class list_page_render {
 public:
  list_page_render(std::shared_ptr<const list_model> model, list_query query, std::string list_path, list_cut cut = {});
  // True once the page is done.
  bool step(std::chrono::microseconds budget);
  // The page's JSON text, once done.
  std::string take();

 private:
  bool shown(const list_item& item) const;
  std::optional<std::size_t> remaining_after(std::size_t index) const;
  void finish();

  std::shared_ptr<const list_model> model_;
  list_query query_;
  std::string list_path_;
  list_cut cut_;
  std::size_t index_ = 0;  // the next item to look at
  std::size_t end_ = 0;    // one past the last item the page may show
  std::string page_;
  std::size_t returned_ = 0;
  std::string last_key_;
  std::size_t last_position_ = 0;
  std::optional<std::size_t> remaining_;  // how many follow the page, when that is counted
  bool more_ = false;                     // an item matching after the page was found
  bool done_ = false;
  std::string body_;
};

// The whole page at once (tests, and pages known to be small).
std::string render_list_page(const list_model& model, const list_query& query, const std::string& list_path,
                             const list_cut* cut = nullptr);

std::string continue_token(const std::string& list_path, std::uint64_t generation, const std::string& after);

}  // namespace sextant
